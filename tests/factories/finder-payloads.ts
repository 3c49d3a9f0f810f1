// A finder whose widget payload has something of every kind, built through the API where a
// route exists (locations, tags, sets, custom fields, maps) and straight into the finder tables
// where the finders CRUD routes are built elsewhere (backing map, own locations).
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Deps } from '../../src/deps.ts';
import { finderLocationsTable, findersTable } from '../../src/modules/finders/finders.table.ts';
import type { createCaller } from '../helpers/app.ts';
import { createWidgetFinder, type WidgetFinder } from './widget-finders.ts';

type Call = ReturnType<typeof createCaller>;

export async function created<T = { id: number }>(
  response: Promise<{ statusCode: number; json(): unknown; body: string }>,
) {
  const res = await response;
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as T;
}

export async function attachMap(deps: Deps, finderId: number, mapId: number | null) {
  await deps.db.update(findersTable).set({ mapId }).where(eq(findersTable.id, finderId));
}

export async function setOwnLocations(deps: Deps, finderId: number, locationIds: number[]) {
  await deps.db.delete(finderLocationsTable).where(eq(finderLocationsTable.finderId, finderId));
  if (locationIds.length === 0) return;
  await deps.db
    .insert(finderLocationsTable)
    .values(locationIds.map((locationId, sortOrder) => ({ finderId, locationId, sortOrder })));
}

export interface PayloadScene {
  finder: WidgetFinder;
  mapId: number;
  setId: number;
  otherSetId: number;
  /** own: the finder's own; both: own and on the map; viaSet: in the map's set; onMap: on the map; outside: none. */
  locations: { own: number; both: number; viaSet: number; onMap: number; outside: number };
}

/**
 * Locations reaching the finder every way: its own list (one of them also on the map), the
 * map's direct list, the map's set; and one that reaches it no way.
 */
export async function createPayloadScene(
  deps: Deps,
  call: Call,
  token: string,
  workspaceId: number,
  options: { authorizedUrls?: string[] } = {},
): Promise<PayloadScene> {
  await created(
    call('POST', '/custom-field-definitions', token, {
      workspace_id: workspaceId,
      name: 'seats',
      label: 'Seats',
      type: 'number',
    }),
  );
  await created(
    call('POST', '/custom-field-definitions', token, {
      workspace_id: workspaceId,
      name: 'services',
      label: 'Services',
      type: 'multiselect',
      options: ['repair', 'rental'],
    }),
  );
  const set = await created(call('POST', '/sets', token, { workspace_id: workspaceId, name: 'Flagship' }));
  const otherSet = await created(call('POST', '/sets', token, { workspace_id: workspaceId, name: 'Outlet' }));
  const location = (title: string, extra: Record<string, unknown> = {}) =>
    created(
      call('POST', '/locations', token, {
        workspace_id: workspaceId,
        title,
        address: `${title} street 1`,
        city: 'Berlin',
        lat: 52.5,
        lng: 13.4,
        ...extra,
      }),
    ).then((row) => row.id);
  const own = await location('Own', {
    tags: ['Drive-thru', 'Free Wi-Fi'],
    set_ids: [otherSet.id],
    custom_fields: { seats: 12, services: ['repair'] },
  });
  const both = await location('Both', { tags: ['Parking'] });
  const viaSet = await location('Via set', { set_ids: [set.id, otherSet.id], custom_fields: { seats: 4 } });
  const onMap = await location('On map');
  const outside = await location('Outside', { tags: ['Hidden tag'] });
  const map = await created(
    call('POST', '/maps', token, { title: 'Store finder', sets: [set.id], locations: [both, onMap] }),
  );
  const finder = await createWidgetFinder(deps, workspaceId, {
    settings: [{ key: 'units', value: 'mi' }],
    ...(options.authorizedUrls ? { authorizedUrls: options.authorizedUrls } : {}),
  });
  await attachMap(deps, finder.id, map.id);
  await setOwnLocations(deps, finder.id, [own, both]);
  return {
    finder,
    mapId: map.id,
    setId: set.id,
    otherSetId: otherSet.id,
    locations: { own, both, viaSet, onMap, outside },
  };
}
