// Which locations pass the visitor's filters: tags (any or all of the chosen ones, per the
// finder's tag_filter_mode), sets (any of the chosen ones), the finder's advanced
// refinements (each chosen refinement must hold; within one, all or any of its conditions) and
// "Open now" (at the instant of the filtering).
// Refinement results are computed once per refinement and kept, so a filter change at 10,000
// locations is one pass over typed arrays.
import { matchesRefinement } from '../lib/refinements.ts';
import type { FinderLocation, Refinement } from './types.ts';

/** What the visitor chose; the filter controls edit these sets in place. */
export interface FilterSelection {
  tags: Set<string>;
  sets: Set<number>;
  /** Indexes into the finder's advanced_refinements. */
  refinements: Set<number>;
  /** Holds 1 when only locations open now pass (not in deep links: a link outlives the hour). */
  open: Set<number>;
}

export const emptySelection = (): FilterSelection => ({
  tags: new Set(),
  sets: new Set(),
  refinements: new Set(),
  open: new Set(),
});

export const selectionSize = (selection: FilterSelection) =>
  selection.tags.size + selection.sets.size + selection.refinements.size + selection.open.size;

/** Replaces the selection's contents (but `open`), keeping the same set objects. */
export function replaceSelection(
  selection: FilterSelection,
  next: { tags: Iterable<string>; sets: Iterable<number>; refinements: Iterable<number> },
): void {
  selection.tags.clear();
  selection.sets.clear();
  selection.refinements.clear();
  for (const tag of next.tags) selection.tags.add(tag);
  for (const set of next.sets) selection.sets.add(set);
  for (const refinement of next.refinements) selection.refinements.add(refinement);
}

export interface LocationFilter {
  /** The indexes of `order` (location indexes) that pass, in the same order. */
  apply(selection: FilterSelection, order: ArrayLike<number>): number[];
}

export function createLocationFilter(
  locations: readonly FinderLocation[],
  refinements: readonly Refinement[],
  tagMode: 'any' | 'all',
  /** Whether a location is open at an instant: the open-now filter's test (hours.view.ts). */
  isOpen: (location: FinderLocation, now: number) => boolean,
): LocationFilter {
  const passes = new Map<number, Uint8Array>();
  const refinementPasses = (index: number): Uint8Array => {
    let result = passes.get(index);
    if (!result) {
      const refinement = refinements[index];
      result = new Uint8Array(locations.length);
      if (refinement) {
        for (let i = 0; i < locations.length; i++) {
          result[i] = matchesRefinement(locations[i] as FinderLocation, refinement) ? 1 : 0;
        }
      }
      passes.set(index, result);
    }
    return result;
  };

  return {
    apply(selection, order) {
      const tags = [...selection.tags];
      const sets = selection.sets;
      const chosenRefinements = [...selection.refinements].map(refinementPasses);
      const open = selection.open.size > 0;
      const now = Date.now();
      const result: number[] = [];
      for (let k = 0; k < order.length; k++) {
        const i = order[k] as number;
        const location = locations[i] as FinderLocation;
        if (tags.length > 0) {
          const has = (slug: string) => location.tags.includes(slug);
          if (tagMode === 'all' ? !tags.every(has) : !tags.some(has)) continue;
        }
        if (sets.size > 0 && !location.sets.some((id) => sets.has(id))) continue;
        if (!chosenRefinements.every((pass) => pass[i] === 1)) continue;
        if (open && !isOpen(location, now)) continue;
        result.push(i);
      }
      return result;
    },
  };
}
