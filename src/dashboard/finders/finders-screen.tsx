// The finders of a workspace: a table of them and a form to create one, which opens its editor.
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { formatDateTime, formatNumber, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { chosenWorkspace, useWorkspaces } from '../workspaces/use-workspaces.ts';
import { useCreateFinder, useFinders } from './use-finders.ts';

export function FindersScreen() {
  const search = useSearch({ from: '/app/finders' });
  const workspaces = useWorkspaces();
  const workspace = workspaces.data && chosenWorkspace(workspaces.data, search.workspace);
  const finders = useFinders(workspace?.id);
  const create = useCreateFinder(workspace?.id ?? 0);
  const navigate = useNavigate();

  if (workspaces.error)
    return (
      <ScreenState
        title={t('finders.title')}
        error={workspaces.error}
        onRetry={() => void workspaces.refetch()}
      />
    );
  if (!workspace) return <ScreenState title={t('finders.title')} />;
  return (
    <>
      <h1>{t('finders.title')}</h1>
      <p>{t('finders.intro')}</p>
      {finders.error ? (
        <ErrorNotice error={finders.error} onRetry={() => void finders.refetch()} />
      ) : !finders.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : finders.data.length === 0 ? (
        <p className="empty">{t('finders.empty')}</p>
      ) : (
        <table className="data-table compact">
          <thead>
            <tr>
              <th scope="col">{t('finders.col.name')}</th>
              <th scope="col">{t('finders.col.locations')}</th>
              <th scope="col">{t('finders.col.updated')}</th>
            </tr>
          </thead>
          <tbody>
            {finders.data.map((finder) => (
              <tr key={finder.id}>
                <td>
                  <Link to="/finders/$finderId" params={{ finderId: String(finder.id) }}>
                    {finder.name}
                  </Link>
                </td>
                <td>{formatNumber(finder.locations.length)}</td>
                <td>{formatDateTime(finder.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section aria-labelledby="create-finder" className="panel">
        <h2 id="create-finder">{t('finders.create')}</h2>
        <Form
          label={t('finders.create')}
          error={create.error}
          onSubmit={(form) =>
            create.mutate(String(form.get('name')).trim(), {
              onSuccess: (finder) =>
                void navigate({ to: '/finders/$finderId', params: { finderId: String(finder.id) } }),
            })
          }
        >
          <Field name="name" label={t('finders.name')} isRequired />
          <SubmitButton pending={create.isPending}>{t('finders.create')}</SubmitButton>
        </Form>
      </section>
    </>
  );
}
