// The process-event hub: ONE listening connection per OS process (LISTEN process_events on a
// dedicated postgres.js connection), fanning notifications out to in-memory subscribers (SSE
// streams). Nothing polls: the notifications that arrive together mark their processes, and
// one query reads, for all of them at once, the events after the lowest id each process's
// subscribers have seen; each subscriber gets the ones it has not. One read runs at a time
// (notifications during it ask for another pass), so the hub holds at most one pooled
// connection whatever the number of clients, and every subscriber sees each event once and in
// id order. When the listening connection drops (a database restart, a network cut), it is
// re-established with backoff and every subscriber is caught up from its last id, so nothing
// written meanwhile is lost.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import postgres from 'postgres';
import { PROCESS_EVENTS_CHANNEL, type ProcessesRepository } from './processes.repository.ts';
import type { ProcessEventRow } from './processes.table.ts';

/** Events read per query; a longer backlog takes several passes. */
const FETCH_BATCH = 1_000;
/** Delays before re-listening after the connection dropped: 100 ms doubling to 5 s. */
const RELISTEN_MIN_MS = 100;
const RELISTEN_MAX_MS = 5_000;
/** A fetch that failed (the pool could not reach the database) is tried again after this. */
const FETCH_RETRY_MS = 1_000;

export interface HubDelivery {
  /** New events, oldest first; empty only on the first delivery (the catch-up found none). */
  events: ProcessEventRow[];
  /** The first delivery of this subscription: the catch-up from its starting id. */
  initial: boolean;
}

interface Subscriber {
  lastId: number;
  initial: boolean;
  deliver(delivery: HubDelivery): void;
}

export interface ProcessEventHubOptions {
  databaseUrl: string;
  repository: Pick<ProcessesRepository, 'eventsAfterMany'>;
  logger: Logger;
}

export class ProcessEventHub {
  private readonly subscribers = new Map<number, Set<Subscriber>>();
  /** Processes with events their subscribers may not have seen. */
  private readonly dirty = new Set<number>();
  private reading = false;
  private scheduled = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private sql: postgres.Sql | undefined;
  private listening = false;
  private closed = false;
  /** The running listen loop, if any. */
  private loop: Promise<void> | undefined;
  /** Counts dropped connections, so a drop during a listen loop makes it go round again. */
  private drops = 0;
  /** Resolves once the first LISTEN is in place. */
  private ready: Promise<void> | undefined;

  constructor(private readonly options: ProcessEventHubOptions) {}

  /**
   * Follows a process from `afterId`: the catch-up (events after it) is delivered first, then
   * each new event as it is committed, by any process on the database. Answers the unsubscribe.
   */
  subscribe(processId: number, afterId: number, deliver: (delivery: HubDelivery) => void): () => void {
    if (this.closed) throw new Error('the process event hub is closed');
    const subscriber: Subscriber = { lastId: afterId, initial: true, deliver };
    let set = this.subscribers.get(processId);
    if (!set) {
      set = new Set();
      this.subscribers.set(processId, set);
    }
    set.add(subscriber);
    // Listen first, then read: an event committed in between is both read and notified, and
    // the subscriber's last id drops the second copy.
    void this.start().then(() => this.fetch(processId));
    return () => {
      const current = this.subscribers.get(processId);
      current?.delete(subscriber);
      if (current?.size === 0) this.subscribers.delete(processId);
    };
  }

  /** Open subscriptions, all processes together. */
  subscriberCount(): number {
    let count = 0;
    for (const set of this.subscribers.values()) count += set.size;
    return count;
  }

  /** Whether LISTEN is in place right now. */
  isListening(): boolean {
    return this.listening;
  }

  /** Starts listening (once); resolves when LISTEN is in place, retrying while the database is away. */
  start(): Promise<void> {
    if (!this.ready) {
      // `onnotify` is the hook postgres.js's own sql.listen() is built on; it is not in the
      // typings. sql.listen() itself re-listens only once after a drop (and gives up silently
      // when the database is still away), so the hub keeps the connection and LISTEN itself.
      const options = {
        max: 1,
        // The connection lives as long as the process: no idle or lifetime rotation.
        idle_timeout: 0,
        max_lifetime: null,
        fetch_types: false,
        onnotice: () => {},
        connection: { application_name: 'lf-process-events' },
        onnotify: (_channel: string, payload: string) => this.onNotify(payload),
        onclose: () => this.onClose(),
      };
      this.sql = postgres(this.options.databaseUrl, options as postgres.Options<Record<string, never>>);
      this.ready = this.listenLoop(false);
    }
    return this.ready;
  }

  /**
   * LISTEN until it holds: retried with backoff while the database is away, and again when the
   * connection dropped while the loop ran. Then, after a reconnect, every subscriber is caught
   * up from its last id (what was committed while nobody listened).
   */
  private listenLoop(catchUp: boolean): Promise<void> {
    this.loop ??= (async () => {
      try {
        let drops: number;
        do {
          drops = this.drops;
          await this.listen();
        } while (drops !== this.drops && !this.closed);
      } finally {
        this.loop = undefined;
      }
      if (!catchUp || this.closed) return;
      this.options.logger.info('process events: listening again; catching subscribers up');
      for (const processId of this.subscribers.keys()) this.fetch(processId);
    })();
    return this.loop;
  }

  private async listen(): Promise<void> {
    let delay = RELISTEN_MIN_MS;
    while (!this.closed && this.sql) {
      try {
        await this.sql`listen ${this.sql(PROCESS_EVENTS_CHANNEL)}`;
        this.listening = true;
        return;
      } catch (error) {
        if (this.closed) return;
        this.options.logger.warn({ err: error, retryInMs: delay }, 'process events: LISTEN failed; retrying');
        await sleep(delay);
        delay = Math.min(delay * 2, RELISTEN_MAX_MS);
      }
    }
  }

  /** The listening connection dropped: listen again (a new connection), then catch up. */
  private onClose(): void {
    this.listening = false;
    this.drops += 1;
    if (this.closed || !this.ready) return;
    this.options.logger.warn('process events: the listening connection closed; reconnecting');
    void this.listenLoop(true);
  }

  private onNotify(payload: string): void {
    let processId: number;
    let eventId: number;
    try {
      const parsed = JSON.parse(payload) as { process_id?: unknown; event_id?: unknown };
      processId = Number(parsed.process_id);
      eventId = Number(parsed.event_id);
    } catch {
      return;
    }
    const set = this.subscribers.get(processId);
    if (!set) return;
    for (const subscriber of set) {
      if (subscriber.lastId < eventId) {
        this.fetch(processId);
        return;
      }
    }
  }

  /** Marks a process for the next read. */
  private fetch(processId: number): void {
    this.dirty.add(processId);
    this.schedule();
  }

  /** The next read, after the notifications of this turn of the event loop have arrived. */
  private schedule(): void {
    if (this.reading || this.scheduled || this.retryTimer || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  /** Reads for every marked process in one query, delivers, and goes on while more are marked. */
  private async drain(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      while (this.dirty.size > 0 && !this.closed) {
        const watched = new Map<number, Subscriber[]>();
        for (const processId of this.dirty) {
          const set = this.subscribers.get(processId);
          if (set && set.size > 0) watched.set(processId, [...set]);
        }
        this.dirty.clear();
        if (watched.size === 0) break;
        const cursors = [...watched].map(([processId, subscribers]) => ({
          processId,
          afterId: Math.min(...subscribers.map((subscriber) => subscriber.lastId)),
        }));
        let rows: ProcessEventRow[];
        try {
          rows = await this.options.repository.eventsAfterMany(cursors, FETCH_BATCH);
        } catch (error) {
          if (this.closed) return;
          this.options.logger.warn({ err: error }, 'process events: reading events failed; retrying');
          for (const processId of watched.keys()) this.dirty.add(processId);
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.schedule();
          }, FETCH_RETRY_MS);
          this.retryTimer.unref();
          return;
        }
        const byProcess = new Map<number, ProcessEventRow[]>();
        for (const row of rows) {
          const list = byProcess.get(row.processId);
          if (list) list.push(row);
          else byProcess.set(row.processId, [row]);
        }
        for (const [processId, subscribers] of watched) {
          const set = this.subscribers.get(processId);
          const fetched = byProcess.get(processId) ?? [];
          for (const subscriber of subscribers) {
            if (!set?.has(subscriber)) continue;
            const events = fetched.filter((row) => row.id > subscriber.lastId);
            if (events.length === 0 && !subscriber.initial) continue;
            if (events.length > 0) subscriber.lastId = events.at(-1)!.id;
            const initial = subscriber.initial;
            subscriber.initial = false;
            subscriber.deliver({ events, initial });
          }
          // A full read may have cut this process's events short: read on from there.
          if (rows.length === FETCH_BATCH) this.dirty.add(processId);
        }
      }
    } finally {
      this.reading = false;
      if (this.dirty.size > 0) this.schedule();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.listening = false;
    this.subscribers.clear();
    const sql = this.sql;
    this.sql = undefined;
    await sql?.end({ timeout: 2 });
  }
}
