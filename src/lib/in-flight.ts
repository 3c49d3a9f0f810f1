// Work that must end before the process closes its pools, though the connection of the request
// that started it is gone: a CSV import cut by the shutdown still records its `cancelled`
// process (docs/api.md, CSV import). The close waits for it, bounded.

export class InFlight {
  readonly #running = new Set<Promise<unknown>>();

  /** Runs `work`; the close waits for it. */
  track<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    const settled = running.then(
      () => {},
      () => {},
    );
    this.#running.add(settled);
    void settled.then(() => this.#running.delete(settled));
    return running;
  }

  /** Resolves true once every tracked work has ended, false when `timeoutMs` passes first. */
  async settle(timeoutMs: number): Promise<boolean> {
    if (this.#running.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([Promise.all([...this.#running]).then(() => true), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
