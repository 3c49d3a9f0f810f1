// Which locations a bulk action applies to: some chosen by id (at most the service's 10,000 in
// one request), or every location the current search selects (sent as the filter, so the
// service picks them, however many).
import { useCallback, useMemo, useState } from 'react';

/** The most ids one bulk request takes (POST /locations/bulk). */
export const MAX_BULK_IDS = 10_000;

export type Selection = { kind: 'ids'; ids: ReadonlySet<number> } | { kind: 'all' };

const NONE: Selection = { kind: 'ids', ids: new Set() };

/** `scope` names what the selection is of (the search and order): a new scope starts empty. */
export function useLocationSelection(scope: string) {
  const [state, setState] = useState<{ scope: string; selection: Selection }>({ scope, selection: NONE });
  const selection = state.scope === scope ? state.selection : NONE;
  const setSelection = useCallback((next: Selection) => setState({ scope, selection: next }), [scope]);
  // Stable across renders, so memoised rows keep their handler.
  const toggle = useCallback(
    (id: number) =>
      setState((previous) => {
        const current = previous.scope === scope ? previous.selection : NONE;
        if (current.kind === 'all') return previous;
        const ids = new Set(current.ids);
        if (ids.has(id)) ids.delete(id);
        else if (ids.size < MAX_BULK_IDS) ids.add(id);
        return { scope, selection: { kind: 'ids', ids } };
      }),
    [scope],
  );
  // One object per selection state, so components that take it skip renders while it stays.
  return useMemo(
    () => ({
      selection,
      isSelected: (id: number) => selection.kind === 'all' || selection.ids.has(id),
      toggle,
      selectAll: () => setSelection({ kind: 'all' }),
      clear: () => setSelection(NONE),
      count: (total: number) => (selection.kind === 'all' ? total : selection.ids.size),
    }),
    [selection, toggle, setSelection],
  );
}

export type LocationSelection = ReturnType<typeof useLocationSelection>;
