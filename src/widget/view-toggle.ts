// The narrow layout's choice between the result list and the map: two native buttons in a
// labelled group, the one shown marked aria-pressed. Native buttons need no key handling of
// ours (Tab reaches each, Enter and Space press it). Wide layouts hide the group (widget.css)
// and show both views side by side.
import { h } from './dom.ts';
import type { Translate } from './i18n.ts';

export type ResultsView = 'list' | 'map';

export interface ViewToggle {
  element: HTMLElement;
  /** Marks `view` as the one shown; showing it is the caller's. */
  set(view: ResultsView): void;
}

export function createViewToggle(t: Translate, onChoose: (view: ResultsView) => void): ViewToggle {
  const buttons = (['list', 'map'] as const).map((view) => {
    const button = h('button', { type: 'button', class: 'lf-button lf-view-button' }, [
      t(view === 'list' ? 'listView' : 'mapView'),
    ]);
    button.addEventListener('click', () => onChoose(view));
    return { view, button };
  });
  const toggle: ViewToggle = {
    element: h(
      'div',
      { class: 'lf-view-toggle', role: 'group', 'aria-label': t('showAs') },
      buttons.map(({ button }) => button),
    ),
    set(shown) {
      for (const { view, button } of buttons) button.setAttribute('aria-pressed', String(view === shown));
    },
  };
  toggle.set('list');
  return toggle;
}
