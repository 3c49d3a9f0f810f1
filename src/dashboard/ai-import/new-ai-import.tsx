// A new AI import: the guided answers (each with whether it is required and its limit), and the
// finder whose map the imported locations should join. The service checks them (422s beside
// their fields, `answers.<field>`), writes the draft batch and queues the drafting; the page
// then goes to the batch, which follows the drafting live.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';
import { useFinders } from '../finders/use-finders.ts';
import { formatNumber, t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { chosenWorkspace, useWorkspaces } from '../workspaces/use-workspaces.ts';
import { ANSWER_FIELDS, type AnswerField, MAX_DRAFTED_LOCATIONS } from './answer-fields.ts';
import { AI_IMPORTS_KEY } from './use-ai-imports.ts';

type Answers = components['schemas']['CreateAiImportBatchInput']['answers'];

const NO_FINDER = 'none';

function limitText(field: AnswerField): string {
  if (field.max === undefined)
    return t('ai_import.limit.count', { max: formatNumber(MAX_DRAFTED_LOCATIONS) });
  return t(field.required ? 'ai_import.limit.required' : 'ai_import.limit.optional', {
    max: formatNumber(field.max),
  });
}

function AnswerInput({ field }: { field: AnswerField }) {
  const description = `${t(field.hint)} ${limitText(field)}`;
  const name = `answers.${field.name}`;
  if (!field.multiline) return <Field name={name} label={t(field.label)} description={description} />;
  return (
    <TextField name={name} className="field">
      <Label>{t(field.label)}</Label>
      <TextArea rows={field.name === 'source_notes' ? 10 : 4} />
      <Text slot="description">{description}</Text>
      <FieldError className="field-error" />
    </TextField>
  );
}

export function NewAiImportScreen() {
  const search = useSearch({ from: '/app/ai-imports/new' });
  const workspaces = useWorkspaces();
  const workspace = workspaces.data && chosenWorkspace(workspaces.data, search.workspace);
  const finders = useFinders(workspace?.id);
  const [finder, setFinder] = useState(NO_FINDER);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: async (body: components['schemas']['CreateAiImportBatchInput']) =>
      unwrap(await api.POST('/api/ai-location-imports', { body })),
    onSuccess(started) {
      void queryClient.invalidateQueries({ queryKey: AI_IMPORTS_KEY });
      void navigate({ to: '/ai-imports/$batchId', params: { batchId: String(started.batch.id) } });
    },
  });
  const title = t('ai_import.new_title');

  if (workspaces.error)
    return <ScreenState title={title} error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  if (!workspace) return <ScreenState title={title} />;
  return (
    <>
      <p>
        <Link to="/ai-imports" search={{ workspace: workspace.id }}>
          {t('ai_import.back_to_list')}
        </Link>
      </p>
      <h1>{title}</h1>
      <p>{t('ai_import.new_intro', { workspace: workspace.name })}</p>
      <div className="ai-answers">
        <Form
          label={title}
          error={create.error}
          onSubmit={(values) => {
            const answers = Object.fromEntries(
              ANSWER_FIELDS.map((field) => [field.name, String(values.get(`answers.${field.name}`) ?? '')]),
            ) as Answers;
            create.mutate({
              workspace_id: workspace.id,
              finder_id: finder === NO_FINDER ? null : Number(finder),
              answers,
            });
          }}
        >
          {ANSWER_FIELDS.map((field) => (
            <AnswerInput key={field.name} field={field} />
          ))}
          <SelectField
            name="finder_id"
            label={t('ai_import.finder')}
            description={t('ai_import.finder_hint')}
            value={finder}
            onChange={setFinder}
            options={[
              { value: NO_FINDER, label: t('ai_import.no_finder') },
              ...(finders.data ?? []).map((entry) => ({ value: String(entry.id), label: entry.name })),
            ]}
          />
          <SubmitButton pending={create.isPending} pendingLabel={t('ai_import.starting')}>
            {t('ai_import.start')}
          </SubmitButton>
        </Form>
      </div>
    </>
  );
}
