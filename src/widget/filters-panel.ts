// The filter controls: a disclosure button and a panel of checkbox groups for "Open now" (when
// locations have opening hours), the finder's tags, sets and advanced refinements. Checking a
// box edits the shared selection and asks the view to update; the button counts the active
// filters. The panel ends with "Show N locations", which narrow layouts show (the panel covers
// the results there) to close it and go back to the list; Escape closes it from anywhere
// inside, focus back on the button.
import { h, uniqueId } from './dom.ts';
import { type FilterSelection, replaceSelection, selectionSize } from './filter.ts';
import type { Translate } from './i18n.ts';
import type { FinderPayload } from './types.ts';

export interface FiltersPanel {
  toggle: HTMLButtonElement;
  panel: HTMLElement;
  /** Re-reads the selection (after a deep link or "clear") into the checkboxes. */
  sync(): void;
  /** The number of results the current selection gives, for "Show N locations". */
  /** Null while the count is not known (a chunked finder's index loading). */
  setCount(count: number | null): void;
}

export function createFiltersPanel(options: {
  payload: FinderPayload;
  t: Translate;
  tagMode: 'any' | 'all';
  /** Offer "Open now": some location has opening hours. */
  openNow: boolean;
  selection: FilterSelection;
  onChange(): void;
  /** The panel opened or closed. */
  onToggle(open: boolean): void;
  /** "Show N locations" closed the panel: the results are wanted. */
  onDone(): void;
}): FiltersPanel | undefined {
  const { payload, t, tagMode, openNow, selection, onChange, onToggle, onDone } = options;
  const groups: {
    legend: string;
    hint?: string;
    items: { label: string; set: Set<unknown>; value: unknown }[];
  }[] = [
    {
      legend: t('hours'),
      items: openNow ? [{ label: t('open'), set: selection.open, value: 1 }] : [],
    },
    {
      legend: t('tags'),
      hint: payload.tags.length > 1 ? t(tagMode === 'all' ? 'tagsAll' : 'tagsAny') : undefined,
      items: payload.tags.map((tag) => ({ label: tag.name, set: selection.tags, value: tag.slug })),
    },
    {
      legend: t('sets'),
      items: payload.sets.map((set) => ({ label: set.name, set: selection.sets, value: set.id })),
    },
    {
      legend: t('refinements'),
      items: payload.advanced_refinements.map((refinement, i) => ({
        label: refinement.name,
        set: selection.refinements,
        value: i,
      })),
    },
  ].filter((group) => group.items.length > 0);
  if (groups.length === 0) return undefined;

  const panelId = uniqueId('filters');
  const toggle = h('button', {
    type: 'button',
    class: 'lf-button',
    'aria-expanded': 'false',
    'aria-controls': panelId,
  });
  const boxes: { input: HTMLInputElement; set: Set<unknown>; value: unknown }[] = [];

  const updateToggle = () => {
    const count = selectionSize(selection);
    toggle.textContent = count > 0 ? t('filtersActive', { count }) : t('filters');
  };

  const fieldsets = groups.map((group) => {
    const hintId = group.hint ? uniqueId('hint') : undefined;
    return h('fieldset', { class: 'lf-fieldset', 'aria-describedby': hintId }, [
      h('legend', {}, [group.legend]),
      group.hint ? h('p', { id: hintId, class: 'lf-hint' }, [group.hint]) : null,
      ...group.items.map((item) => {
        const input = h('input', { type: 'checkbox' });
        boxes.push({ input, set: item.set, value: item.value });
        input.addEventListener('change', () => {
          if (input.checked) item.set.add(item.value);
          else item.set.delete(item.value);
          updateToggle();
          onChange();
        });
        return h('label', { class: 'lf-check' }, [input, h('span', {}, [item.label])]);
      }),
    ]);
  });

  const clear = h('button', { type: 'button', class: 'lf-button lf-button--quiet' }, [t('clearFilters')]);
  clear.addEventListener('click', () => {
    replaceSelection(selection, { tags: [], sets: [], refinements: [] });
    selection.open.clear();
    panel.sync();
    onChange();
  });

  const done = h('button', { type: 'button', class: 'lf-button lf-button--primary lf-filters-done' });

  const element = h('div', { id: panelId, class: 'lf-filters' }, [
    ...fieldsets,
    h('div', { class: 'lf-filters-footer' }, [clear, done]),
  ]);
  element.hidden = true;
  const setOpen = (open: boolean) => {
    element.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    onToggle(open);
  };
  toggle.addEventListener('click', () => setOpen(element.hidden));
  done.addEventListener('click', () => {
    setOpen(false);
    onDone();
  });
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    setOpen(false);
    toggle.focus();
  });

  const panel: FiltersPanel = {
    toggle,
    panel: element,
    sync() {
      for (const box of boxes) box.input.checked = box.set.has(box.value);
      updateToggle();
    },
    setCount(count) {
      done.textContent = count === null ? t('loading') : t('showResults', { count });
    },
  };
  panel.sync();
  return panel;
}
