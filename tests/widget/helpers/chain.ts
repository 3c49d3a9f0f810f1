// A chain of many generated locations (tests/fakes/widget-payload.ts), written straight into
// the database in batches of 10,000 (an insert ... select from json_to_recordset, then their set
// and tags), since 100,000 locations through the API would take minutes; the finder, its set
// and its map link through the service's routes. Used by the mobile widget benchmark
// (scripts/bench-widget-mobile.ts) and the chunked widget's browser tests.
import type postgres from 'postgres';
import type { FinderLocation } from '../../../src/widget/types.ts';
import { generateFinderPayload } from '../../fakes/widget-payload.ts';
import type { ServiceBackend } from './service-backend.ts';

export interface SeededChain {
  token: string;
  /** The generated locations, in the order they were inserted (their ids are the service's now). */
  locations: FinderLocation[];
}

/**
 * A finder of `count` generated locations, reached through a set linked to its map, with the
 * settings of the workspace's first finder (its tile server, ...); not published. The tags the
 * locations carry must exist in the workspace already (the first finder's seed makes them).
 */
export async function seedChain(
  backend: ServiceBackend,
  sql: postgres.Sql,
  count: number,
): Promise<SeededChain> {
  const api = backend.ownerApi;
  const workspaceId = backend.workspaceId;
  const finder = await api<{ id: number; token: string; maps: number[] }>('POST', '/finders', {
    name: `Chain of ${count}`,
    workspace_id: workspaceId,
  });
  const set = await api<{ id: number }>('POST', '/sets', {
    workspace_id: workspaceId,
    name: `Chain of ${count}`,
  });
  await api('PUT', `/maps/${finder.maps[0]}`, { sets: [set.id] });
  const template = await api<{ settings: unknown }>('GET', `/finders/${await firstFinderId(api)}`);
  await api('PUT', `/finders/${finder.id}`, { settings: template.settings });
  const locations = generateFinderPayload(count).locations;
  for (let start = 0; start < locations.length; start += 10_000) {
    const rows = locations.slice(start, start + 10_000).map(asRow);
    const ids = await sql<{ id: number; n: number }[]>`
      insert into locations (workspace_id, title, address, city, country, zip, lat, lng, phone, time_zone,
        hours, special_hours, temporarily_closed, reopens_on, custom_values)
      select ${workspaceId}, r.title, r.address, r.city, r.country, r.zip, r.lat, r.lng, r.phone, r.time_zone,
        r.hours, r.special_hours, r.temporarily_closed, r.reopens_on, r.custom_values
      from json_to_recordset(${sql.json(rows as unknown as postgres.JSONValue)}::json) as r(n int, title text, address text, city text,
        country text, zip text, lat float8, lng float8, phone text, time_zone text, hours json,
        special_hours json, temporarily_closed bool, reopens_on text, custom_values jsonb)
      order by r.n
      returning id`;
    await sql`insert into location_sets (location_id, set_id) select id, ${set.id}::int from unnest(${sql.array(ids.map((row) => row.id))}::int[]) id`;
    await sql`
      insert into location_tags (location_id, tag_id)
      select l.id, t.id from unnest(${sql.array(ids.map((row) => row.id))}::int[], ${sql.array(
        rows.map((row) => row.tags.join(',')),
      )}::text[]) as l(id, tags)
      join tags t on t.workspace_id = ${workspaceId}::int and t.slug = any(string_to_array(l.tags, ','))`;
  }
  return { token: finder.token, locations };
}

async function firstFinderId(api: ServiceBackend['ownerApi']): Promise<number> {
  const finders = await api<{ id: number }[]>('GET', '/finders');
  return finders[0]!.id;
}

/** A generated location as the columns of its row (`n`: its place in the batch; `tags`: slugs). */
export function asRow(location: FinderLocation, n: number) {
  return {
    n,
    title: location.title,
    address: location.address,
    city: location.city,
    country: location.country,
    zip: location.zip,
    lat: location.lat,
    lng: location.lng,
    phone: location.phone,
    time_zone: location.time_zone,
    hours: location.hours ?? null,
    special_hours: location.special_days?.length
      ? location.special_days.map(([date, hours, label]) => ({
          date,
          end_date: null,
          hours,
          label: label ?? null,
        }))
      : null,
    temporarily_closed: location.temporarily_closed ?? false,
    reopens_on: location.reopens_on ?? null,
    custom_values: location.custom_fields,
    tags: location.tags,
  };
}
