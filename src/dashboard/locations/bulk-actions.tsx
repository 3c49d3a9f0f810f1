// What can be done to the selected locations at once: delete them (after confirmation), add or
// remove a tag, add them to or take them out of a category. One request (POST
// /locations/bulk), one transaction on the service: all or nothing.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';
import { formatNumber, t, tCount } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { useSets, useTags } from '../workspaces/use-workspace-content.ts';
import type { LocationFilter } from './location-pages.ts';
import type { LocationSelection } from './location-selection.ts';

type BulkBody = components['schemas']['BulkLocationsInput'];
type Action = Exclude<BulkBody['action'], 'delete'>;

const ACTIONS: readonly {
  value: Action;
  label: 'bulk.add_tag' | 'bulk.remove_tag' | 'bulk.add_set' | 'bulk.remove_set';
}[] = [
  { value: 'add_tag', label: 'bulk.add_tag' },
  { value: 'remove_tag', label: 'bulk.remove_tag' },
  { value: 'add_set', label: 'bulk.add_set' },
  { value: 'remove_set', label: 'bulk.remove_set' },
];

/** Memoised: the table's scrolling renders the screen every frame, and this part need not follow. */
export const BulkActions = memo(function BulkActions({
  filter,
  selection,
  total,
}: {
  filter: LocationFilter;
  selection: LocationSelection;
  total: number;
}) {
  const queryClient = useQueryClient();
  const tags = useTags(filter.workspaceId);
  const sets = useSets(filter.workspaceId);
  const [action, setAction] = useState<Action>('add_tag');
  const [target, setTarget] = useState('');
  const count = selection.count(total);
  const chosen = selection.selection;

  const run = useMutation({
    mutationFn: async (body: Pick<BulkBody, 'action' | 'tag_id' | 'set_id'>) =>
      unwrap(
        await api.POST('/api/locations/bulk', {
          body: {
            workspace_id: filter.workspaceId,
            ...body,
            ...(chosen.kind === 'all'
              ? {
                  filter: {
                    q: filter.q || undefined,
                    without_coordinates: filter.withoutCoordinates || undefined,
                  },
                }
              : { ids: [...chosen.ids] }),
          },
        }),
      ),
    onSuccess() {
      selection.clear();
      void queryClient.invalidateQueries({ queryKey: ['locations'] });
      void queryClient.invalidateQueries({ queryKey: ['geocoding'] });
    },
  });

  const byTag = action === 'add_tag' || action === 'remove_tag';
  const targets = (byTag ? tags.data : sets.data) ?? [];
  return (
    <section className="bulk-bar" aria-label={t('bulk.title')}>
      <p role="status">
        {chosen.kind === 'all'
          ? tCount('bulk.all_selected', count)
          : t('bulk.selected', { count: formatNumber(count) })}
      </p>
      {count > 0 && (
        <>
          <SelectField
            name="action"
            label={t('bulk.action')}
            value={action}
            onChange={(value) => {
              setAction(value as Action);
              setTarget('');
            }}
            options={ACTIONS.map((entry) => ({ value: entry.value, label: t(entry.label) }))}
          />
          <SelectField
            name="target"
            label={byTag ? t('bulk.tag') : t('bulk.set')}
            value={target}
            onChange={setTarget}
            options={targets.map((entry) => ({ value: String(entry.id), label: entry.name }))}
          />
          <Button
            className="button primary"
            isDisabled={!target || run.isPending}
            onPress={() =>
              run.mutate({ action, ...(byTag ? { tag_id: Number(target) } : { set_id: Number(target) }) })
            }
          >
            {t('bulk.apply')}
          </Button>
          <ConfirmButton
            trigger={t('bulk.delete')}
            title={t('bulk.delete')}
            action={tCount('bulk.delete_action', count)}
            isDisabled={run.isPending}
            onConfirm={() => run.mutate({ action: 'delete' })}
          >
            <p>{tCount('bulk.delete_confirm', count)}</p>
          </ConfirmButton>
          <Button className="button" onPress={selection.clear}>
            {t('bulk.clear')}
          </Button>
        </>
      )}
      {run.data && <p role="status">{tCount('bulk.done', run.data.affected)}</p>}
      {run.error && <ErrorNotice error={run.error} />}
    </section>
  );
});
