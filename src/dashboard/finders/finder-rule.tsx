// Which locations of the workspace the finder shows by a rule (docs/api.md, Finders, Rule), beside
// its lists: none (only the lists), all of them, or those with any of some tags, in any of some
// categories (sets) and in one of some countries. Saved as the finder's `rule`; the total shown
// above the tab is read again after a save.
import { useQueryClient } from '@tanstack/react-query';
import countryCodes from 'i18n-iso-countries';
import { type ReactNode, useState } from 'react';
import { Checkbox } from 'react-aria-components/Checkbox';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { Label } from 'react-aria-components/Label';
import { Radio, RadioGroup } from 'react-aria-components/RadioGroup';
import { locale, t } from '../i18n/i18n.ts';
import { ChipPicker } from '../ui/chip-picker.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Form, SubmitButton } from '../ui/form.tsx';
import { type LocationSet, useSets, useTags } from '../workspaces/use-workspace-content.ts';
import { refusalOf, sourceKeys } from './use-finder-sources.ts';
import { type Finder, useUpdateFinder } from './use-finders.ts';

type Mode = 'none' | 'all' | 'some';
type Rule = NonNullable<Finder['rule']>;
interface WorkspaceTag {
  id: number;
  name: string;
}

const modeOf = (rule: Finder['rule']): Mode =>
  rule === null
    ? 'none'
    : rule.tag_ids.length + rule.set_ids.length + rule.countries.length === 0
      ? 'all'
      : 'some';

let countries: { code: string; name: string }[] | undefined;
/** The ISO 3166-1 codes the service takes, named in the dashboard's language, by name. */
const knownCountries = () => {
  if (!countries) {
    const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    countries = Object.keys(countryCodes.getAlpha2Codes())
      .map((code) => ({ code, name: names.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, locale));
  }
  return countries;
};
const countryName = (code: string) => knownCountries().find((c) => c.code === code)?.name ?? code;

export function FinderRule({ finder }: { finder: Finder }) {
  const tags = useTags(finder.workspace_id);
  const sets = useSets(finder.workspace_id);
  let body: ReactNode;
  if (tags.error || sets.error)
    body = (
      <ErrorNotice
        error={tags.error ?? sets.error}
        onRetry={() => void (tags.error ? tags.refetch() : sets.refetch())}
      />
    );
  else if (!tags.data || !sets.data) body = <p role="status">{t('app.loading')}</p>;
  else body = <RuleForm key={finder.id} finder={finder} tags={tags.data} sets={sets.data} />;
  return (
    <section aria-labelledby="finder-rule">
      <h3 id="finder-rule">{t('finder_rule.title')}</h3>
      <p>{t('finder_rule.intro')}</p>
      {body}
    </section>
  );
}

function RuleForm({ finder, tags, sets }: { finder: Finder; tags: WorkspaceTag[]; sets: LocationSet[] }) {
  const rule: Rule = finder.rule ?? { tag_ids: [], set_ids: [], countries: [] };
  const [mode, setMode] = useState<Mode>(modeOf(finder.rule));
  const [tagIds, setTagIds] = useState(() => rule.tag_ids.map(String));
  const [setIds, setSetIds] = useState(() => rule.set_ids.map(String));
  const [chosen, setChosen] = useState<string[]>(rule.countries);
  const save = useUpdateFinder(finder.id);
  const queryClient = useQueryClient();
  const refused = refusalOf(save.error);
  const submit = () => {
    const next =
      mode === 'none'
        ? null
        : mode === 'all'
          ? {}
          : { tag_ids: tagIds.map(Number), set_ids: setIds.map(Number), countries: chosen };
    save.mutate(
      { rule: next },
      { onSuccess: () => void queryClient.invalidateQueries({ queryKey: sourceKeys.shown(finder.id) }) },
    );
  };
  return (
    <Form label={t('finder_rule.title')} error={refused ? null : save.error} onSubmit={submit}>
      <RadioGroup className="field" value={mode} onChange={(value) => setMode(value as Mode)}>
        <Label>{t('finder_rule.mode')}</Label>
        <Radio value="none" className="radio">
          <span className="radio-dot" aria-hidden="true" />
          {t('finder_rule.none')}
        </Radio>
        <Radio value="all" className="radio">
          <span className="radio-dot" aria-hidden="true" />
          {t('finder_rule.all')}
        </Radio>
        <Radio value="some" className="radio">
          <span className="radio-dot" aria-hidden="true" />
          {t('finder_rule.some')}
        </Radio>
      </RadioGroup>
      {mode === 'some' && (
        <>
          <p>{t('finder_rule.some_hint')}</p>
          {tags.length > 0 && (
            <CheckboxGroup className="field" value={tagIds} onChange={setTagIds}>
              <Label>{t('finder_rule.tags')}</Label>
              {tags.map((tag) => (
                <Checkbox key={tag.id} value={String(tag.id)} className="checkbox">
                  <span className="checkbox-box" aria-hidden="true" />
                  {tag.name}
                </Checkbox>
              ))}
            </CheckboxGroup>
          )}
          {sets.length > 0 && (
            <CheckboxGroup className="field" value={setIds} onChange={setSetIds}>
              <Label>{t('finder_rule.categories')}</Label>
              {sets.map((set) => (
                <Checkbox key={set.id} value={String(set.id)} className="checkbox">
                  <span className="checkbox-box" aria-hidden="true" />
                  {set.name}
                </Checkbox>
              ))}
            </CheckboxGroup>
          )}
          <CountryPicker codes={chosen} onChange={setChosen} />
        </>
      )}
      {refused && (
        <p role="alert" className="field-error">
          {refused}
        </p>
      )}
      <SubmitButton pending={save.isPending}>{t('finder_rule.save')}</SubmitButton>
      {save.isSuccess && !save.isPending && (
        <p role="status" className="notice">
          {t('finder.saved')}
        </p>
      )}
    </Form>
  );
}

/** The chosen countries as chips, and a combo box that finds a country by name or code. */
function CountryPicker({ codes, onChange }: { codes: string[]; onChange: (codes: string[]) => void }) {
  const optionsFor = (typed: string) => {
    const wanted = typed.trim().toLowerCase();
    return knownCountries()
      .filter((c) => !codes.includes(c.code))
      .filter((c) => c.name.toLowerCase().includes(wanted) || c.code.toLowerCase() === wanted)
      .slice(0, 50)
      .map((c) => ({ id: c.code, name: c.name }));
  };
  return (
    <ChipPicker
      chosen={codes.map((code) => ({ id: code, name: countryName(code) }))}
      onRemove={(ids) => onChange(codes.filter((code) => !ids.has(code)))}
      optionsFor={optionsFor}
      onPick={(code) => onChange([...codes, code])}
      labels={{
        field: t('finder_rule.countries'),
        chosen: t('finder_rule.countries_chosen'),
        none: t('finder_rule.countries_none'),
        remove: (name) => t('finder_rule.country_remove', { name }),
        add: t('finder_rule.country_add'),
        hint: t('finder_rule.country_hint'),
      }}
    />
  );
}
