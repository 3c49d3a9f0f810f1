// The query behind the widget's place search: the finder a public token names, with what the
// origin check, the choice of provider and the key need, in one round trip. The finders module
// gets a by-token resolver of its own; the two are meant to become one.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type AutocompleteProvider, findersTable } from '../finders/finders.table.ts';

export interface PlaceFinderIntegration {
  provider: AutocompleteProvider;
  /** SecretBox-sealed; decrypted by the service for the one call that needs it. */
  apiKeyEncrypted: string;
  updatedAt: Date;
}

export interface PlaceFinder {
  id: number;
  workspaceId: number;
  authorizedUrls: string[];
  /** The string value of the settings key `autocomplete_provider` (the last pair wins), if any. */
  preferredProvider: string | undefined;
  /** Most recently updated first. */
  integrations: PlaceFinderIntegration[];
}

interface IntegrationJson {
  provider: AutocompleteProvider;
  apiKeyEncrypted: string;
  updatedAt: string;
}

export function createPlaceSearchRepository(db: Executor) {
  return {
    async findFinderByToken(token: string, tx: Executor = db): Promise<PlaceFinder | undefined> {
      const [row] = await tx
        .select({
          id: findersTable.id,
          workspaceId: findersTable.workspaceId,
          authorizedUrls: findersTable.authorizedUrls,
          // Column names are spelled out: Drizzle leaves them unqualified in a one-table select,
          // where `finder_id = id` inside the subquery would compare the integration with itself.
          preferredProvider: sql<string | null>`(
            select setting.value ->> 'value'
            from jsonb_array_elements(finders.settings) with ordinality as setting(value, position)
            where setting.value ->> 'key' = 'autocomplete_provider'
              and jsonb_typeof(setting.value -> 'value') = 'string'
            order by setting.position desc
            limit 1)`,
          integrations: sql<IntegrationJson[]>`coalesce((
            select json_agg(json_build_object(
                'provider', i.provider,
                'apiKeyEncrypted', i.api_key_encrypted,
                'updatedAt', i.updated_at)
              order by i.updated_at desc, i.id desc)
            from finder_integrations as i
            where i.finder_id = finders.id), '[]'::json)`,
        })
        .from(findersTable)
        .where(eq(findersTable.token, token));
      if (!row) return undefined;
      return {
        id: row.id,
        workspaceId: row.workspaceId,
        authorizedUrls: row.authorizedUrls,
        preferredProvider: row.preferredProvider ?? undefined,
        integrations: row.integrations.map((integration) => ({
          provider: integration.provider,
          apiKeyEncrypted: integration.apiKeyEncrypted,
          updatedAt: new Date(integration.updatedAt),
        })),
      };
    },
  };
}

export type PlaceSearchRepository = ReturnType<typeof createPlaceSearchRepository>;
