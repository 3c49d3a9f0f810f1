// A list of any length that keeps only the rows in view (plus a margin) in the DOM: rows of
// one fixed height, absolutely placed in a <ul> as tall as the whole list, so 10,000 results
// cost a dozen elements. It stays a list for assistive technology (aria-setsize/posinset give
// each row its place) and is one tab stop: arrows, Home, End, PageUp and PageDown move between
// rows (roving tabindex).
import { h } from './dom.ts';
import type { Lifetime } from './lifetime.ts';

export interface VirtualListOptions {
  label: string;
  rowHeight: number;
  /** Fills the row's button for the item at `index` (rows are reused, so set everything). */
  renderRow(index: number, button: HTMLButtonElement): void;
  onActivate(index: number): void;
  /** The view's: a scroll's pending frame is cancelled when it ends. */
  lifetime: Lifetime;
}

const OVERSCAN = 4;

export class VirtualList {
  readonly element: HTMLDivElement;
  private readonly list: HTMLUListElement;
  private readonly rows = new Map<number, HTMLLIElement>();
  private count = 0;
  private active = 0;
  private frame = 0;

  constructor(private readonly options: VirtualListOptions) {
    this.list = h('ul', { class: 'lf-list', 'aria-label': options.label });
    this.element = h('div', { class: 'lf-list-scroll' }, [this.list]);
    options.lifetime.add(() => cancelAnimationFrame(this.frame));
    this.element.addEventListener('scroll', () => {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => this.renderWindow(false));
    });
    this.list.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.list.addEventListener('click', (event) => {
      const index = this.indexOf(event.target);
      if (index !== undefined) this.options.onActivate(index);
    });
    this.list.addEventListener('focusin', (event) => {
      const index = this.indexOf(event.target);
      if (index !== undefined) this.setActive(index);
    });
  }

  /** New items: every visible row is drawn afresh. */
  setCount(count: number): void {
    this.count = count;
    this.active = Math.min(this.active, Math.max(0, count - 1));
    this.list.style.height = `${count * this.options.rowHeight}px`;
    this.renderWindow(true);
  }

  /** Same items, changed details (e.g. the selection): redraw the rows in view. */
  refresh(): void {
    this.renderWindow(true);
  }

  scrollToIndex(index: number): void {
    const { rowHeight } = this.options;
    const top = index * rowHeight;
    const view = this.element;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (top + rowHeight > view.scrollTop + view.clientHeight) {
      view.scrollTop = top + rowHeight - view.clientHeight;
    }
    this.renderWindow(false);
  }

  focusIndex(index: number): void {
    if (index < 0 || index >= this.count) return;
    this.setActive(index);
    this.scrollToIndex(index);
    this.rows.get(index)?.querySelector('button')?.focus();
  }

  private indexOf(target: EventTarget | null): number | undefined {
    const row = (target as Element | null)?.closest?.('li');
    const index = row ? Number(row.dataset.index) : Number.NaN;
    return Number.isInteger(index) ? index : undefined;
  }

  private setActive(index: number): void {
    this.active = index;
    this.updateTabStops();
  }

  private onKeyDown(event: KeyboardEvent): void {
    const current = this.indexOf(event.target);
    if (current === undefined) return;
    const page = Math.max(1, Math.floor(this.element.clientHeight / this.options.rowHeight) - 1);
    const targets: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: this.count - 1,
      PageDown: Math.min(this.count - 1, current + page),
      PageUp: Math.max(0, current - page),
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    this.focusIndex(target);
  }

  private renderWindow(redraw: boolean): void {
    const { rowHeight } = this.options;
    const height = this.element.clientHeight || rowHeight * 12;
    const first = Math.max(0, Math.floor(this.element.scrollTop / rowHeight) - OVERSCAN);
    const last = Math.min(
      this.count - 1,
      Math.ceil((this.element.scrollTop + height) / rowHeight) + OVERSCAN,
    );

    for (const [index, row] of this.rows) {
      const keep = index >= first && index <= last && index < this.count;
      // The focused row stays while it has focus, so scrolling never drops the keyboard's place.
      if (!keep && !(index < this.count && row.matches(':focus-within'))) {
        row.remove();
        this.rows.delete(index);
      }
    }
    for (let index = first; index <= last; index++) {
      let row = this.rows.get(index);
      if (!row || redraw) {
        const button = row?.querySelector('button') ?? h('button', { type: 'button', class: 'lf-row' });
        this.options.renderRow(index, button);
        if (!row) {
          row = h('li', { 'data-index': index }, [button]);
          row.style.top = `${index * rowHeight}px`;
          this.rows.set(index, row);
          this.list.append(row);
        }
      }
      row.setAttribute('aria-setsize', String(this.count));
      row.setAttribute('aria-posinset', String(index + 1));
    }
    this.updateTabStops();
  }

  private updateTabStops(): void {
    const tabbable = this.rows.has(this.active) ? this.active : Math.min(...this.rows.keys());
    for (const [index, row] of this.rows) {
      row.querySelector('button')?.setAttribute('tabindex', index === tabbable ? '0' : '-1');
    }
  }
}
