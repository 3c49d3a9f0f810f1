// A finder's autocomplete provider keys (docs/api.md, Integrations): sealed with the app's
// SecretBox under APP_KEY, in the format the mapping module opens for each widget search, and never
// returned nor logged. The list names every provider, with whether the finder holds a key.
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import type { FinderChangeListener } from '../../lib/payload-changes.ts';
import { createFinderNotFoundError, createIntegrationNotFoundError } from './finders.errors.ts';
import type { FindersRepository } from './finders.repository.ts';
import type { IntegrationPayload } from './finders.schemas.ts';
import { notifyListener } from './finders.service.ts';
import { type AutocompleteProvider, autocompleteProviders } from './finders.table.ts';

export interface FinderIntegrationsServiceDeps {
  db: Database;
  finders: FindersRepository;
  secretBox: SecretBox;
  events: FinderChangeListener;
  logger: Logger;
}

export function createFinderIntegrationsService({
  db,
  finders,
  secretBox,
  events,
  logger,
}: FinderIntegrationsServiceDeps) {
  return {
    /** Every provider in a fixed order, `has_api_key` telling whether the finder holds its key. */
    async list(actor: Actor, finderId: number): Promise<IntegrationPayload[]> {
      if (!(await finders.findAccessibleRef(actor, finderId))) throw createFinderNotFoundError();
      const held = await finders.integrationProviders(finderId);
      return autocompleteProviders.map((provider) => ({ provider, has_api_key: held.has(provider) }));
    },

    /** Creates or replaces the key; the finder's row lock keeps a concurrent delete out. */
    async put(
      actor: Actor,
      finderId: number,
      provider: AutocompleteProvider,
      apiKey: string,
    ): Promise<IntegrationPayload> {
      await db.transaction(async (tx) => {
        if (!(await finders.find(actor, finderId, { lock: true }, tx))) throw createFinderNotFoundError();
        await finders.upsertIntegration(finderId, provider, secretBox.encrypt(apiKey), tx);
      });
      await notifyListener(logger, 'changed', finderId, () => events.finderChanged(finderId));
      return { provider, has_api_key: true };
    },

    /** 404 when the finder holds no key for the provider. */
    async delete(actor: Actor, finderId: number, provider: AutocompleteProvider): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await finders.find(actor, finderId, { lock: true }, tx))) throw createFinderNotFoundError();
        if (!(await finders.deleteIntegration(finderId, provider, tx)))
          throw createIntegrationNotFoundError();
      });
      await notifyListener(logger, 'changed', finderId, () => events.finderChanged(finderId));
    },
  };
}

export type FinderIntegrationsService = ReturnType<typeof createFinderIntegrationsService>;
