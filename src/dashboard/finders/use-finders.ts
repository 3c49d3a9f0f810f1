// A workspace's finders and one finder, as the screens read and change them: the list, one
// finder, its publication (hash and time of the last publish), its provider keys (only whether
// each is held), and the writes (create, update, publish, unpublish, set and remove a key) that
// refresh what they change.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { components, operations } from '../api/schema.gen.ts';

export type Finder = components['schemas']['Finder'];
export type Integration =
  operations['listFinderIntegrations']['responses'][200]['content']['application/json'][number];
export type Provider = Integration['provider'];
type FinderUpdate = NonNullable<operations['updateFinder']['requestBody']>['content']['application/json'];

export const finderKeys = {
  list: (workspaceId: number) => ['finders', 'list', workspaceId] as const,
  one: (id: number) => ['finders', 'one', id] as const,
  publication: (token: string) => ['finders', 'publication', token] as const,
  integrations: (id: number) => ['finders', 'integrations', id] as const,
};

export function useFinders(workspaceId: number | undefined) {
  return useQuery({
    queryKey: finderKeys.list(workspaceId ?? 0),
    enabled: workspaceId !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/finders', { params: { query: { workspace_id: workspaceId, limit: 1000 } } }),
      ),
  });
}

export function useFinder(id: number) {
  return useQuery({
    queryKey: finderKeys.one(id),
    queryFn: async () => unwrap(await api.GET('/api/finders/{id}', { params: { path: { id } } })),
  });
}

export function usePublication(token: string | undefined) {
  return useQuery({
    queryKey: finderKeys.publication(token ?? ''),
    enabled: token !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/ext/finders/details/{key}/info', { params: { path: { key: token as string } } }),
      ),
  });
}

export function useCreateFinder(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      unwrap(await api.POST('/api/finders', { body: { name, workspace_id: workspaceId } })),
    onSuccess(finder) {
      queryClient.setQueryData(finderKeys.one(finder.id), finder);
      void queryClient.invalidateQueries({ queryKey: finderKeys.list(workspaceId) });
    },
  });
}

export function useUpdateFinder(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: FinderUpdate) =>
      unwrap(await api.PUT('/api/finders/{id}', { params: { path: { id } }, body })),
    onSuccess(finder) {
      queryClient.setQueryData(finderKeys.one(id), finder);
      void queryClient.invalidateQueries({ queryKey: finderKeys.list(finder.workspace_id) });
    },
  });
}

export function usePublish(token: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: finderKeys.publication(token) });
  const publish = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/ext/finders/details/{key}/sync', { params: { path: { key: token } } })),
    onSuccess: refresh,
  });
  const unpublish = useMutation({
    mutationFn: async () =>
      unwrap(await api.DELETE('/api/ext/finders/details/{key}', { params: { path: { key: token } } })),
    onSuccess: refresh,
  });
  return { publish, unpublish };
}

export function useIntegrations(id: number) {
  return useQuery({
    queryKey: finderKeys.integrations(id),
    queryFn: async () =>
      unwrap(await api.GET('/api/finders/{id}/integrations', { params: { path: { id } } })),
  });
}

/**
 * Storing and removing one provider's key. The key is read from the form when the request is
 * made, so it never sits in the mutation's variables (React state) and the form is emptied once
 * it is saved.
 */
export function useProviderKey(id: number, provider: Provider) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: finderKeys.integrations(id) });
  const params = { path: { id, provider } };
  const save = useMutation({
    mutationFn: async (form: HTMLFormElement) =>
      unwrap(
        await api.PUT('/api/finders/{id}/integrations/{provider}', {
          params,
          body: { api_key: String(new FormData(form).get('api_key') ?? '') },
        }),
      ),
    onSuccess(_integration, form) {
      form.reset();
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/finders/{id}/integrations/{provider}', { params })),
    // A 404 means the key was already gone: the list is stale either way.
    onSettled: refresh,
  });
  return { save, remove };
}
