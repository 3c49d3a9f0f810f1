// The writes of the workspaces screen: create, rename, delete, and inviting someone into a
// workspace. Each change refreshes every workspace query (the list, the switcher, the details).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { WORKSPACES_KEY, type Workspace, workspaceDetailKey } from './use-workspaces.ts';

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
}

export function useCreateWorkspace() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (name: string) => unwrap(await api.POST('/api/workspaces', { body: { name } })),
    onSuccess: refresh,
  });
}

export function useRenameWorkspace(id: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (name: string) =>
      unwrap(await api.PUT('/api/workspaces/{id}', { params: { path: { id } }, body: { name } })),
    onSuccess: refresh,
  });
}

export function useDeleteWorkspace(id: number) {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/workspaces/{id}', { params: { path: { id } } })),
    onSuccess() {
      // Gone from the list at once, so nothing asks for its detail again (a 404) while the
      // list is fetched anew.
      queryClient.setQueryData<Workspace[]>(WORKSPACES_KEY, (list) => list?.filter((item) => item.id !== id));
      queryClient.removeQueries({ queryKey: workspaceDetailKey(id) });
      return refresh();
    },
  });
}

export function useSendInvite(workspaceId: number) {
  return useMutation({
    mutationFn: async (email: string) =>
      unwrap(await api.POST('/api/invite/send', { body: { email, workspace_id: workspaceId } })),
  });
}
