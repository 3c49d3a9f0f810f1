// The caller's workspaces, and which one the screens show: the `workspace` of the page's
// address when it names one of them, else the last one chosen (kept in localStorage), else the
// first.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';

const CHOSEN_KEY = 'lf-dashboard-workspace';

export function useWorkspaces() {
  return useQuery({
    queryKey: ['workspaces'],
    queryFn: async () => unwrap(await api.GET('/api/workspaces')),
    staleTime: 60_000,
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
