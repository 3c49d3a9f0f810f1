// A mounted view's hold on the page. Whatever outlives the view's own DOM (listeners on window
// and document, observers, timers, animation frames, requests, the map) is registered here when
// it is made, and all of it is released by end(), which index.ts calls when the view's
// container leaves the document. This is the one definition of teardown: modules register
// into a lifetime and never release page-level things on their own.
export class Lifetime {
  private readonly controller = new AbortController();
  private readonly disposers: (() => void)[] = [];

  /** Aborted when the view ends: listeners added with it are removed, requests cancelled. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get ended(): boolean {
    return this.controller.signal.aborted;
  }

  /** Runs `dispose` when the view ends (at once when it has ended already). */
  add(dispose: () => void): void {
    if (this.ended) dispose();
    else this.disposers.push(dispose);
  }

  /** addEventListener for as long as the view lives. */
  listen<K extends keyof WindowEventMap>(
    target: Window,
    type: K,
    listener: (event: WindowEventMap[K]) => void,
  ): void;
  listen<K extends keyof DocumentEventMap>(
    target: Document,
    type: K,
    listener: (event: DocumentEventMap[K]) => void,
  ): void;
  listen(target: EventTarget, type: string, listener: (event: Event) => void): void {
    if (!this.ended) target.addEventListener(type, listener, { signal: this.signal });
  }

  /** Releases everything, in the reverse order of registration: later things may use earlier ones. */
  end(): void {
    if (this.ended) return;
    this.controller.abort();
    for (const dispose of this.disposers.splice(0).reverse()) {
      try {
        dispose();
      } catch (error) {
        // One failing release must not keep the others.
        console.error('[location-finder]', error);
      }
    }
  }
}
