// The AI import batches as the screens ask for them: the workspace's list (GET
// /ai-location-imports, at most 20) and one batch with its items. Every answer of an item's
// review is the whole batch, which replaces the cached one.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';

export type Batch = components['schemas']['AiImportBatch'];
export type BatchWithItems = components['schemas']['AiImportBatchWithItems'];
export type Item = components['schemas']['AiImportItem'];
export type Payload = Item['normalized_payload'];

export const AI_IMPORTS_KEY = ['ai-imports'] as const;
export const batchKey = (id: number) => [...AI_IMPORTS_KEY, 'batch', id] as const;

export function useAiImports(workspaceId: number | undefined) {
  return useQuery({
    queryKey: [...AI_IMPORTS_KEY, 'list', workspaceId],
    enabled: workspaceId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/ai-location-imports', { params: { query: { workspace_id: workspaceId } } })),
  });
}

/** `id` 0: nothing to ask for (the address named no batch). */
export function useBatch(id: number) {
  return useQuery({
    queryKey: batchKey(id),
    enabled: id > 0,
    queryFn: async () => unwrap(await api.GET('/api/ai-location-imports/{id}', { params: { path: { id } } })),
  });
}

/** What an item holds now: the reviewer's edit, else the draft. */
export const effectivePayload = (item: Item): Payload => item.user_payload ?? item.normalized_payload;

/** An item the import would write: approved, or waiting for review with no validation error. */
export const isImportable = (item: Item) =>
  item.validation_errors.length === 0 && (item.status === 'approved' || item.status === 'pending_review');
