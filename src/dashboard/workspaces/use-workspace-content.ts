// What a workspace names that locations refer to: its tags, sets and custom field definitions,
// each one query per workspace, refreshed when a screen changes them.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';

export type Tag = components['schemas']['Tag'];
export type LocationSet = components['schemas']['Set'];
export type CustomFieldDefinition = components['schemas']['CustomFieldDefinition'];

export const contentKeys = {
  tags: (workspaceId: number) => ['tags', workspaceId] as const,
  sets: (workspaceId: number) => ['sets', workspaceId] as const,
  customFields: (workspaceId: number) => ['custom-fields', workspaceId] as const,
};

/** Lists of named things stay small (hundreds): one page of the largest size holds them. */
const ALL = 1000;

export function useTags(workspaceId: number) {
  return useQuery({
    queryKey: contentKeys.tags(workspaceId),
    queryFn: async () =>
      unwrap(await api.GET('/api/tags', { params: { query: { workspace_id: workspaceId, limit: ALL } } })),
  });
}

export function useSets(workspaceId: number) {
  return useQuery({
    queryKey: contentKeys.sets(workspaceId),
    queryFn: async () =>
      unwrap(await api.GET('/api/sets', { params: { query: { workspace_id: workspaceId, limit: ALL } } })),
  });
}

export function useCustomFields(workspaceId: number) {
  return useQuery({
    queryKey: contentKeys.customFields(workspaceId),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/custom-field-definitions', {
          params: { query: { workspace_id: workspaceId, limit: ALL } },
        }),
      ),
  });
}
