// The filter controls: a disclosure button and a panel of checkbox groups for the finder's
// tags, sets and advanced refinements. Checking a box edits the shared selection and asks
// the view to update; the button counts the active filters.
import { h, uniqueId } from './dom.ts';
import { type FilterSelection, replaceSelection, selectionSize } from './filter.ts';
import type { Translate } from './i18n.ts';
import type { FinderPayload } from './types.ts';

export interface FiltersPanel {
  toggle: HTMLButtonElement;
  panel: HTMLElement;
  /** Re-reads the selection (after a deep link or "clear") into the checkboxes. */
  sync(): void;
}

export function createFiltersPanel(options: {
  payload: FinderPayload;
  t: Translate;
  tagMode: 'any' | 'all';
  selection: FilterSelection;
  onChange(): void;
}): FiltersPanel | undefined {
  const { payload, t, tagMode, selection, onChange } = options;
  const groups: {
    legend: string;
    hint?: string;
    items: { label: string; set: Set<unknown>; value: unknown }[];
  }[] = [
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
    panel.sync();
    onChange();
  });

  const element = h('div', { id: panelId, class: 'lf-filters' }, [...fieldsets, clear]);
  element.hidden = true;
  toggle.addEventListener('click', () => {
    element.hidden = !element.hidden;
    toggle.setAttribute('aria-expanded', String(!element.hidden));
  });

  const panel: FiltersPanel = {
    toggle,
    panel: element,
    sync() {
      for (const box of boxes) box.input.checked = box.set.has(box.value);
      updateToggle();
    },
  };
  panel.sync();
  return panel;
}
