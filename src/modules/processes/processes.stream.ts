// One client's server-sent-event stream of a process (docs/api.md, GET /processes/{id}/stream), as
// a readable stream the route sends: a `retry:` hint and the process's current state first, then
// every event after the client's Last-Event-ID (`id: <event id>` and a `data:` line of JSON each),
// a `: ping` comment every 10 s, `event: done` once the process has reached a terminal status, and
// the end after at most 25 s (clients reconnect). The events come from the hub, so an open stream
// holds no database connection.
import { PassThrough, type Readable } from 'node:stream';
import type { ProcessEventHub } from './processes.hub.ts';
import { type ProcessEventPayload, toProcessEventPayload } from './processes.schemas.ts';
import { type ProcessRow, type ProcessStatus, terminalProcessStatuses } from './processes.table.ts';

export const STREAM_MAX_MS = 25_000;
export const STREAM_PING_MS = 10_000;
/** Reconnection delay suggested to EventSource clients. */
export const STREAM_RETRY_MS = 1_000;
/** A client this far behind is cut off; it resumes from its Last-Event-ID on reconnect. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface ProcessStreamOptions {
  maxMs?: number;
  pingMs?: number;
}

export interface ProcessStream {
  stream: Readable;
  /** Ends the stream and lets go of the subscription and timers (the client left). */
  close(): void;
}

const isTerminal = (status: string | null) =>
  status !== null && (terminalProcessStatuses as readonly string[]).includes(status);

/** The current state, in the shape of an event without an id (it does not move Last-Event-ID). */
export function stateMessage(process: ProcessRow): Omit<ProcessEventPayload, 'id'> & { id: null } {
  return {
    id: null,
    type: 'state',
    status: process.status,
    step: process.currentStep,
    progress: process.progressPercent,
    message: process.errorMessage,
    payload: { result_summary: process.summary ?? null },
    created_at: process.updatedAt.toISOString(),
  };
}

export function openProcessStream(
  hub: ProcessEventHub,
  process: ProcessRow,
  lastEventId: number,
  options: ProcessStreamOptions = {},
): ProcessStream {
  const stream = new PassThrough();
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  const timers: NodeJS.Timeout[] = [];

  const close = () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    unsubscribe?.();
    stream.end();
  };
  const write = (frame: string) => {
    if (closed) return;
    stream.write(frame);
    if (stream.writableLength > MAX_BUFFERED_BYTES) close();
  };
  const done = (status: ProcessStatus | string) => {
    write(`event: done\ndata: ${JSON.stringify({ process_id: process.id, status })}\n\n`);
    close();
  };

  write(`retry: ${STREAM_RETRY_MS}\n\n`);
  write(`data: ${JSON.stringify(stateMessage(process))}\n\n`);

  unsubscribe = hub.subscribe(process.id, lastEventId, ({ events, initial }) => {
    for (const event of events) {
      write(`id: ${event.id}\ndata: ${JSON.stringify(toProcessEventPayload(event))}\n\n`);
    }
    const last = events.at(-1);
    if (last) {
      if (isTerminal(last.status)) done(last.status!);
    } else if (initial && isTerminal(process.status)) {
      // Resumed after the final event: nothing left to send but the end.
      done(process.status);
    }
  });

  const ping = setInterval(() => write(': ping\n\n'), options.pingMs ?? STREAM_PING_MS);
  timers.push(ping, setTimeout(close, options.maxMs ?? STREAM_MAX_MS));
  stream.on('close', close);
  return { stream, close };
}
