// The caller's workspaces, and which one the screens show: the `workspace` of the page's
// address when it names one of them, else the last one chosen (kept in localStorage), else the
// first. Every workspace query lives under WORKSPACES_KEY, so one invalidation after a change
// refreshes the list, the switcher and the details together.
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';

export type Workspace = components['schemas']['Workspace'];

const CHOSEN_KEY = 'lf-dashboard-workspace';

export const WORKSPACES_KEY = ['workspaces'] as const;
export const workspaceDetailKey = (id: number) => [...WORKSPACES_KEY, 'detail', id] as const;

export function useWorkspaces() {
  return useQuery({
    queryKey: WORKSPACES_KEY,
    queryFn: async () => unwrap(await api.GET('/api/workspaces')),
    staleTime: 60_000,
  });
}

/**
 * Each workspace's detail (GET /workspaces/{id}), for its `members_count`: the list does not
 * carry it, so it is asked for per workspace (a plan allows at most ten of one's own).
 */
export function useWorkspaceDetails(workspaces: readonly Workspace[] | undefined) {
  return useQueries({
    queries: (workspaces ?? []).map((workspace) => ({
      queryKey: workspaceDetailKey(workspace.id),
      queryFn: async () =>
        unwrap(await api.GET('/api/workspaces/{id}', { params: { path: { id: workspace.id } } })),
    })),
  });
}

export function rememberWorkspace(id: number): void {
  localStorage.setItem(CHOSEN_KEY, String(id));
}

export function chosenWorkspace<W extends { id: number }>(
  workspaces: W[],
  requested?: number,
): W | undefined {
  const remembered = Number(localStorage.getItem(CHOSEN_KEY));
  return (
    workspaces.find((workspace) => workspace.id === requested) ??
    workspaces.find((workspace) => workspace.id === remembered) ??
    workspaces[0]
  );
}
