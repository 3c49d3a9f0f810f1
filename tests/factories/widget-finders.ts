// Finders as the widget's public routes see them, written straight into their tables (the
// finders and integrations routes are built elsewhere): a token, settings, authorized_urls,
// and provider keys sealed with the app's SecretBox, as PUT .../integrations/{provider} stores them.
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../src/deps.ts';
import { randomToken } from '../../src/lib/crypto.ts';
import {
  type AutocompleteProvider,
  type FinderSetting,
  finderIntegrationsTable,
  findersTable,
} from '../../src/modules/finders/finders.table.ts';

export interface WidgetFinder {
  id: number;
  token: string;
  workspaceId: number;
}

export async function createWidgetFinder(
  deps: Deps,
  workspaceId: number,
  options: { settings?: FinderSetting[]; authorizedUrls?: string[]; name?: string } = {},
): Promise<WidgetFinder> {
  const [row] = await deps.db
    .insert(findersTable)
    .values({
      workspaceId,
      name: options.name ?? 'Store finder',
      token: randomToken(),
      settings: options.settings ?? [],
      authorizedUrls: options.authorizedUrls ?? [],
    })
    .returning({ id: findersTable.id, token: findersTable.token });
  return { id: row!.id, token: row!.token, workspaceId };
}

/** Creates or replaces the finder's key for a provider; `updatedAt` orders "most recent". */
export async function setIntegration(
  deps: Deps,
  finderId: number,
  provider: AutocompleteProvider,
  apiKey: string,
  updatedAt = new Date(),
) {
  const apiKeyEncrypted = deps.secretBox.encrypt(apiKey);
  await deps.db
    .insert(finderIntegrationsTable)
    .values({ finderId, provider, apiKeyEncrypted, updatedAt })
    .onConflictDoUpdate({
      target: [finderIntegrationsTable.finderId, finderIntegrationsTable.provider],
      set: { apiKeyEncrypted, updatedAt },
    });
}

export async function removeIntegration(deps: Deps, finderId: number, provider: AutocompleteProvider) {
  await deps.db
    .delete(finderIntegrationsTable)
    .where(
      and(eq(finderIntegrationsTable.finderId, finderId), eq(finderIntegrationsTable.provider, provider)),
    );
}

export async function setFinderSettings(deps: Deps, finderId: number, settings: FinderSetting[]) {
  await deps.db.update(findersTable).set({ settings }).where(eq(findersTable.id, finderId));
}
