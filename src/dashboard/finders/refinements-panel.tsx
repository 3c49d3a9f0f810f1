// The finder's filters (advanced_refinements) as a rule builder: each filter has the name
// visitors see, whether locations must meet all or any of its conditions, and its conditions
// (a field, a test fitting the field, a value fitting both), added, removed and moved up or
// down. The whole list is saved with one PUT; a 422's dotted paths
// (`advanced_refinements.0.conditions.1.value`) are the controls' names, so each message shows
// beside its control. The limits are shown, and adding stops at them.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { Checkbox } from 'react-aria-components/Checkbox';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { ApiError, type FieldErrors } from '../api/errors.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { useCustomFields, useSets, useTags } from '../workspaces/use-workspace-content.ts';
import {
  apiValue,
  changed,
  type DraftCondition,
  type DraftRefinement,
  draftValue,
  type FieldChoice,
  fieldChoices,
  foldErrors,
  type Match,
  opLabel,
  opsFor,
  picksFromList,
  RULE_LIMITS,
  startValue,
} from './refinement-rules.ts';
import { type Finder, useUpdateFinder } from './use-finders.ts';

export function RefinementsPanel({ finder }: { finder: Finder }) {
  const tags = useTags(finder.workspace_id);
  const sets = useSets(finder.workspace_id);
  const definitions = useCustomFields(finder.workspace_id);
  const failed = tags.error ?? sets.error ?? definitions.error;
  const choices = useMemo(
    () =>
      tags.data && sets.data && definitions.data
        ? fieldChoices(tags.data, sets.data, definitions.data, finder.advanced_refinements)
        : undefined,
    [tags.data, sets.data, definitions.data, finder.advanced_refinements],
  );
  if (failed || !choices)
    return (
      <>
        <h2>{t('rules.title')}</h2>
        {failed ? (
          <ErrorNotice
            error={failed}
            onRetry={() => {
              void tags.refetch();
              void sets.refetch();
              void definitions.refetch();
            }}
          />
        ) : (
          <p role="status">{t('app.loading')}</p>
        )}
      </>
    );
  return <RuleBuilder finder={finder} choices={choices} />;
}

function RuleBuilder({ finder, choices }: { finder: Finder; choices: FieldChoice[] }) {
  const lastKey = useRef(0);
  const newKey = () => {
    lastKey.current += 1;
    return lastKey.current;
  };
  const [rules, setRules] = useState<DraftRefinement[]>(() =>
    finder.advanced_refinements.map((refinement) => ({
      key: newKey(),
      name: refinement.name,
      match: refinement.match,
      conditions: refinement.conditions.map((condition) => {
        const field = choiceOf(choices, condition.field);
        return {
          key: newKey(),
          field: condition.field,
          op: condition.op,
          value: draftValue(field, condition.op, condition.value),
        };
      }),
    })),
  );
  const update = useUpdateFinder(finder.id);

  // After a control is added, removed or moved, focus goes to the first of these that can take
  // it (a removed control's focus would otherwise fall back to the page), once the list shows
  // the change.
  const focusNext = useRef<{ selectors: string[]; before: DraftRefinement[] }>(undefined);
  useEffect(() => {
    const pending = focusNext.current;
    if (!pending || pending.before === rules) return;
    focusNext.current = undefined;
    for (const selector of pending.selectors) {
      const element = document.querySelector<HTMLElement>(selector);
      if (element && !element.hasAttribute('disabled')) {
        element.focus();
        break;
      }
    }
  }, [rules]);

  // The same folded error for the same answer, so the form keeps track of edited fields.
  const folded = useMemo(() => {
    const error = update.error;
    if (!(error instanceof ApiError && error.status === 422)) return { error, lists: {} as FieldErrors };
    const { controls, lists } = foldErrors(error.fields);
    return {
      error: new ApiError(error.status, error.code, error.message, controls, error.retryAfter),
      lists,
    };
  }, [update.error]);

  /** A change of the list's shape: the last answer's paths no longer point at the same controls. */
  const restructure = (next: (previous: DraftRefinement[]) => DraftRefinement[], focus: string[]) => {
    update.reset();
    focusNext.current = { selectors: focus, before: rules };
    setRules(next);
  };
  const edit = (key: number, change: (rule: DraftRefinement) => DraftRefinement) =>
    setRules((previous) => previous.map((rule) => (rule.key === key ? change(rule) : rule)));

  const atLimit = rules.length >= RULE_LIMITS.refinements;
  return (
    <Form
      label={t('rules.title')}
      error={folded.error}
      onSubmit={() =>
        update.mutate({
          advanced_refinements: rules.map((rule) => ({
            name: rule.name,
            match: rule.match,
            conditions: rule.conditions.map((condition) => {
              const value = apiValue(choiceOf(choices, condition.field), condition.op, condition.value);
              return condition.op === 'exists'
                ? { field: condition.field, op: condition.op }
                : { field: condition.field, op: condition.op, value };
            }),
          })),
        })
      }
    >
      <h2>{t('rules.title')}</h2>
      <p>{t('rules.intro')}</p>
      {rules.length === 0 && <p className="empty">{t('rules.empty')}</p>}
      {rules.map((rule, index) => (
        <RuleEditor
          key={rule.key}
          rule={rule}
          index={index}
          choices={choices}
          lists={folded.lists}
          onEdit={(change) => edit(rule.key, change)}
          onRestructure={(change, focus) =>
            restructure((previous) => previous.map((r) => (r.key === rule.key ? change(r) : r)), focus)
          }
          newKey={newKey}
          onRemove={() =>
            restructure(
              (previous) => previous.filter((r) => r.key !== rule.key),
              [`#rule-${rules[index + 1]?.key} .rule-name input`, '.rules-add'],
            )
          }
        />
      ))}
      {folded.lists.advanced_refinements && (
        <p className="field-error">{folded.lists.advanced_refinements.join(' ')}</p>
      )}
      <p className="muted" id="rules-limit">
        {atLimit
          ? t('rules.limit_reached', { max: RULE_LIMITS.refinements })
          : t('rules.count', { count: rules.length, max: RULE_LIMITS.refinements })}
      </p>
      <div className="actions">
        <Button
          className="button rules-add"
          isDisabled={atLimit}
          aria-describedby="rules-limit"
          onPress={() => {
            const key = newKey();
            restructure(
              (previous) => [...previous, { key, name: '', match: 'all', conditions: [] }],
              [`#rule-${key} .rule-name input`],
            );
          }}
        >
          {t('rules.add')}
        </Button>
        <SubmitButton pending={update.isPending}>{t('app.save')}</SubmitButton>
      </div>
      {update.isSuccess && !update.isPending && (
        <p role="status" className="notice">
          {t('finder.saved')}
        </p>
      )}
    </Form>
  );
}

/** The choice a condition names (fieldChoices lists every stored field, so one is found). */
function choiceOf(choices: FieldChoice[], id: string): FieldChoice {
  return choices.find((choice) => choice.id === id) ?? (choices[0] as FieldChoice);
}

interface RuleEditorProps {
  rule: DraftRefinement;
  index: number;
  choices: FieldChoice[];
  lists: FieldErrors;
  onEdit: (change: (rule: DraftRefinement) => DraftRefinement) => void;
  onRestructure: (change: (rule: DraftRefinement) => DraftRefinement, focus: string[]) => void;
  onRemove: () => void;
  newKey: () => number;
}

function RuleEditor({
  rule,
  index,
  choices,
  lists,
  onEdit,
  onRestructure,
  onRemove,
  newKey,
}: RuleEditorProps) {
  const path = `advanced_refinements.${index}`;
  const full = rule.conditions.length >= RULE_LIMITS.conditions;
  const limitId = `rule-${rule.key}-limit`;
  const setCondition = (key: number, change: (condition: DraftCondition) => DraftCondition) =>
    onEdit((r) => ({ ...r, conditions: r.conditions.map((c) => (c.key === key ? change(c) : c)) }));
  const move = (from: number, to: number, direction: 'up' | 'down') => {
    const moving = rule.conditions[from] as DraftCondition;
    const other = direction === 'up' ? 'down' : 'up';
    onRestructure(
      (r) => {
        const conditions = [...r.conditions];
        conditions.splice(from, 1);
        conditions.splice(to, 0, moving);
        return { ...r, conditions };
      },
      [`#cond-${moving.key} .move-${direction}`, `#cond-${moving.key} .move-${other}`],
    );
  };
  return (
    <fieldset className="fieldset rule" id={`rule-${rule.key}`}>
      <legend>{t('rules.legend', { n: index + 1 })}</legend>
      <TextField
        name={`${path}.name`}
        className="field rule-name"
        value={rule.name}
        onChange={(name) => onEdit((r) => ({ ...r, name }))}
      >
        <Label>{t('rules.name')}</Label>
        <Input />
        <Text slot="description">{t('rules.name_hint')}</Text>
        <FieldError className="field-error" />
      </TextField>
      <SelectField
        name={`${path}.match`}
        label={t('rules.match')}
        value={rule.match}
        onChange={(match) => onEdit((r) => ({ ...r, match: match as Match }))}
        options={[
          { value: 'all', label: t('rules.match.all') },
          { value: 'any', label: t('rules.match.any') },
        ]}
      />
      {rule.conditions.length === 0 && <p className="muted">{t('rules.no_conditions')}</p>}
      {rule.conditions.map((condition, position) => (
        <ConditionEditor
          key={condition.key}
          condition={condition}
          path={`${path}.conditions.${position}`}
          position={position}
          last={position === rule.conditions.length - 1}
          choices={choices}
          onChange={(change) => setCondition(condition.key, change)}
          onMove={(direction) => move(position, direction === 'up' ? position - 1 : position + 1, direction)}
          onRemove={() =>
            onRestructure(
              (r) => ({ ...r, conditions: r.conditions.filter((c) => c.key !== condition.key) }),
              [`#rule-${rule.key} .condition-add`],
            )
          }
        />
      ))}
      {lists[path] && <p className="field-error">{lists[path].join(' ')}</p>}
      <p className="muted" id={limitId}>
        {full
          ? t('rules.conditions_full', { max: RULE_LIMITS.conditions })
          : t('rules.conditions_count', { count: rule.conditions.length, max: RULE_LIMITS.conditions })}
      </p>
      <div className="actions">
        <Button
          className="button condition-add"
          isDisabled={full}
          aria-describedby={limitId}
          onPress={() => {
            const key = newKey();
            const field = choices[0] as FieldChoice;
            onRestructure(
              (r) => ({
                ...r,
                conditions: [
                  ...r.conditions,
                  { key, field: field.id, op: 'eq', value: startValue(field, 'eq') },
                ],
              }),
              [`#cond-${key} .select-button`],
            );
          }}
        >
          {t('rules.add_condition')}
        </Button>
        <Button className="button danger" onPress={onRemove}>
          {t('rules.remove')}
        </Button>
      </div>
    </fieldset>
  );
}

interface ConditionEditorProps {
  condition: DraftCondition;
  path: string;
  position: number;
  last: boolean;
  choices: FieldChoice[];
  onChange: (change: (condition: DraftCondition) => DraftCondition) => void;
  onMove: (direction: 'up' | 'down') => void;
  onRemove: () => void;
}

function ConditionEditor({
  condition,
  path,
  position,
  last,
  choices,
  onChange,
  onMove,
  onRemove,
}: ConditionEditorProps) {
  const field = choiceOf(choices, condition.field);
  return (
    <fieldset className="fieldset condition" id={`cond-${condition.key}`}>
      <legend>{t('rules.condition_legend', { n: position + 1 })}</legend>
      <SelectField
        name={`${path}.field`}
        label={t('rules.field')}
        value={condition.field}
        onChange={(id) => onChange((c) => changed(c, { field: choiceOf(choices, id) }, field))}
        options={choices.map((choice) => ({ value: choice.id, label: choice.label }))}
      />
      <SelectField
        name={`${path}.op`}
        label={t('rules.op')}
        value={condition.op}
        onChange={(op) => onChange((c) => changed(c, { field, op: op as DraftCondition['op'] }, field))}
        options={opsFor(field, condition.op).map((op) => ({ value: op, label: opLabel(op, field) }))}
      />
      <ValueInput
        name={`${path}.value`}
        field={field}
        condition={condition}
        onChange={(value) => onChange((c) => ({ ...c, value }))}
      />
      <div className="actions">
        <Button className="button move-up" isDisabled={position === 0} onPress={() => onMove('up')}>
          {t('rules.move_up')}
        </Button>
        <Button className="button move-down" isDisabled={last} onPress={() => onMove('down')}>
          {t('rules.move_down')}
        </Button>
        <Button className="button danger" onPress={onRemove}>
          {t('rules.remove_condition')}
        </Button>
      </div>
    </fieldset>
  );
}

function ValueInput({
  name,
  field,
  condition,
  onChange,
}: {
  name: string;
  field: FieldChoice;
  condition: DraftCondition;
  onChange: (value: string | string[]) => void;
}) {
  const { op, value } = condition;
  if (op === 'exists') return null;
  const options =
    field.kind === 'boolean'
      ? [
          { value: 'true', label: t('rules.yes') },
          { value: 'false', label: t('rules.no') },
        ]
      : field.options;
  const nothingChosen = Array.isArray(value) ? value.length === 0 : value === '';
  if (picksFromList(field) && options.length === 0 && nothingChosen)
    return (
      <p className="muted">
        {t(
          field.kind === 'tag'
            ? 'rules.no_tags'
            : field.kind === 'set'
              ? 'rules.no_sets'
              : 'rules.no_options',
        )}
      </p>
    );
  if (op === 'in' && picksFromList(field)) {
    const chosen = Array.isArray(value) ? value : [];
    // A stored value no longer in the list (a renamed tag) stays visible, so it can be unticked.
    const shown = [
      ...options,
      ...chosen
        .filter((entry) => !options.some((option) => option.value === entry))
        .map((entry) => ({ value: entry, label: t('rules.value_gone', { value: entry }) })),
    ];
    return (
      <CheckboxGroup name={name} className="field" value={chosen} onChange={onChange}>
        <Label>{t('rules.values')}</Label>
        {shown.map((option) => (
          <Checkbox key={option.value} value={option.value} className="checkbox">
            <span className="checkbox-box" aria-hidden="true" />
            {option.label}
          </Checkbox>
        ))}
        <Text slot="description">{t('rules.values_hint', { max: RULE_LIMITS.inValues })}</Text>
        <FieldError className="field-error" />
      </CheckboxGroup>
    );
  }
  if (op === 'in')
    return (
      <TextField name={name} className="field" value={String(value)} onChange={onChange}>
        <Label>{t('rules.values_lines')}</Label>
        <TextArea rows={3} />
        <Text slot="description">{t('rules.values_lines_hint', { max: RULE_LIMITS.inValues })}</Text>
        <FieldError className="field-error" />
      </TextField>
    );
  const text = Array.isArray(value) ? (value[0] ?? '') : value;
  if (picksFromList(field)) {
    const known = options.some((option) => option.value === text);
    return (
      <SelectField
        name={name}
        label={t('rules.value')}
        value={text}
        onChange={onChange}
        options={
          known || text === ''
            ? options
            : [...options, { value: text, label: t('rules.value_gone', { value: text }) }]
        }
      />
    );
  }
  return (
    <Field
      name={name}
      label={t('rules.value')}
      type={field.kind === 'number' ? 'number' : field.kind === 'date' ? 'date' : 'text'}
      value={text}
      onChange={onChange}
    />
  );
}
