// The categories (the API's sets) whose locations the finder shows: those linked to its backing
// map, ticked among the workspace's sets and saved as the map's sets. Sets the map holds from
// elsewhere (a co-owner's other workspace) are not listed and are kept on save.
import { type ReactNode, useState } from 'react';
import { Checkbox } from 'react-aria-components/Checkbox';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { ApiError } from '../api/errors.ts';
import { t, tCount } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Form, SubmitButton } from '../ui/form.tsx';
import type { LocationSet } from '../workspaces/use-workspace-content.ts';
import { useSets } from '../workspaces/use-workspace-content.ts';
import { type BackingMap, refusalOf, useBackingMap, useSaveMapSets } from './use-finder-sources.ts';
import type { Finder } from './use-finders.ts';

export function FinderCategories({ finder }: { finder: Finder }) {
  const mapId = finder.maps[0];
  const map = useBackingMap(mapId);
  const sets = useSets(finder.workspace_id);

  let body: ReactNode;
  if (mapId === undefined) body = <p>{t('finder_sources.no_map')}</p>;
  else if (map.error instanceof ApiError && map.error.status === 404)
    body = <p>{t('finder_sources.map_not_yours')}</p>;
  else if (map.error || sets.error)
    body = (
      <ErrorNotice
        error={map.error ?? sets.error}
        onRetry={() => void (map.error ? map.refetch() : sets.refetch())}
      />
    );
  else if (!map.data || !sets.data) body = <p role="status">{t('app.loading')}</p>;
  else if (sets.data.length === 0) body = <p className="empty">{t('finder_sources.no_categories')}</p>;
  else body = <CategoriesForm key={map.data.id} finder={finder} map={map.data} sets={sets.data} />;

  return (
    <section aria-labelledby="finder-categories">
      <h3 id="finder-categories">{t('finder_sources.categories')}</h3>
      <p>{t('finder_sources.categories_intro')}</p>
      {body}
    </section>
  );
}

function CategoriesForm({ finder, map, sets }: { finder: Finder; map: BackingMap; sets: LocationSet[] }) {
  const [checked, setChecked] = useState(() => map.sets.map((set) => String(set.id)));
  const save = useSaveMapSets(map.id, finder.id);
  const listed = new Set(sets.map((set) => set.id));
  const kept = map.sets.filter((set) => !listed.has(set.id)).map((set) => set.id);
  // Maps answer a refused list with 400 and `errors.sets` naming the refused ids.
  const refused = refusalOf(save.error);
  return (
    <Form
      label={t('finder_sources.categories')}
      error={refused ? null : save.error}
      onSubmit={() => save.mutate([...kept, ...checked.map(Number)])}
    >
      <CheckboxGroup
        name="sets"
        className="field"
        value={checked}
        onChange={setChecked}
        isInvalid={refused !== undefined}
      >
        <Label>{t('finder_sources.categories_label')}</Label>
        <Text slot="description">{t('finder_sources.categories_hint')}</Text>
        {sets.map((set) => (
          <Checkbox key={set.id} value={String(set.id)} className="checkbox">
            <span className="checkbox-box" aria-hidden="true" />
            {set.name}
          </Checkbox>
        ))}
        <FieldError className="field-error">{refused}</FieldError>
      </CheckboxGroup>
      {map.locations.length > 0 && <p>{tCount('finder_sources.map_locations', map.locations.length)}</p>}
      <SubmitButton pending={save.isPending}>{t('finder_sources.save_categories')}</SubmitButton>
      {save.isSuccess && !save.isPending && (
        <p role="status" className="notice">
          {t('finder.saved')}
        </p>
      )}
    </Form>
  );
}
