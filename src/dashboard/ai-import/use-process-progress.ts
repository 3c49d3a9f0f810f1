// A drafting process followed live: its server-sent events fetched with the bearer token (the
// API's stream ends every 25 s and is resumed after the last event id), and when the stream
// cannot be had (an answer that is not an event stream, a network that cuts it) the process
// asked for every 2 s instead, until drafting is over.
import { useEffect, useRef, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { getSession } from '../api/session.ts';
import { apiBaseUrl } from '../config.ts';
import { readEventStream } from './event-stream.ts';

export interface ProcessProgress {
  status: string;
  progress: number | null;
  step: string | null;
  /** The latest event's sentence, or the error of a failed process. */
  message: string | null;
}

/** Drafting needs nothing more from the process once it is at one of these. */
export const DRAFTING_OVER: ReadonlySet<string> = new Set([
  'waiting_review',
  'completed',
  'failed',
  'cancelled',
]);
export const POLL_INTERVAL_MS = 2000;

type Via = 'stream' | 'polling';

interface StreamedEvent {
  status: string | null;
  progress: number | null;
  step: string | null;
  message: string | null;
}

/** `ms`, or less when `signal` aborts; its listener goes with it, so polling piles none up. */
const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });

export function useProcessProgress(
  processId: number | null,
  /** Changed to follow the process again (after a retry). */
  round: number,
  onOver: () => void,
) {
  const [progress, setProgress] = useState<ProcessProgress>();
  const [via, setVia] = useState<Via>();
  const [error, setError] = useState<unknown>();
  const over = useRef(onOver);
  over.current = onOver;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new round follows the process again after a retry
  useEffect(() => {
    if (processId === null) return;
    // A new process or round starts from nothing: the last one's state (failed, say) is not its.
    setProgress(undefined);
    setError(undefined);
    const controller = new AbortController();
    const { signal } = controller;
    let current: ProcessProgress = { status: 'pending', progress: null, step: null, message: null };
    let lastEventId: string | undefined;
    const show = (next: ProcessProgress) => {
      current = next;
      if (!signal.aborted) setProgress(next);
      return DRAFTING_OVER.has(next.status);
    };

    /** True once drafting is over; false when the stream is not to be had. */
    async function stream(): Promise<boolean> {
      for (;;) {
        const session = getSession();
        if (!session) return false;
        const resume = lastEventId === undefined ? '' : `?last_event_id=${encodeURIComponent(lastEventId)}`;
        let response: Response;
        try {
          response = await fetch(`${apiBaseUrl}/api/processes/${processId}/stream${resume}`, {
            headers: { Authorization: `Bearer ${session.token}`, Accept: 'text/event-stream' },
            cache: 'no-store',
            signal,
          });
        } catch {
          return false;
        }
        const type = response.headers.get('content-type') ?? '';
        if (!response.ok || !response.body || !type.startsWith('text/event-stream')) {
          await response.body?.cancel().catch(() => undefined);
          return false;
        }
        setVia('stream');
        try {
          for await (const message of readEventStream(response.body)) {
            if (message.event === 'done') return true;
            if (message.id !== undefined) lastEventId = message.id;
            const event = JSON.parse(message.data) as StreamedEvent;
            const done = show({
              status: event.status ?? current.status,
              progress: event.progress ?? current.progress,
              step: event.step ?? current.step,
              message: event.message ?? current.message,
            });
            if (done) return true;
          }
        } catch {
          // Cut mid-way: the next round resumes after the last event it got.
          if (signal.aborted) return true;
        }
      }
    }

    async function poll() {
      setVia('polling');
      while (!signal.aborted) {
        try {
          const process = unwrap(
            await api.GET('/api/processes/{id}', { params: { path: { id: processId as number } }, signal }),
          );
          setError(undefined);
          const done = show({
            status: process.status,
            progress: process.progress,
            step: process.metadata.current_step,
            message: process.metadata.error_message ?? current.message,
          });
          if (done) return;
        } catch (failure) {
          if (signal.aborted) return;
          setError(failure);
        }
        await wait(POLL_INTERVAL_MS, signal);
      }
    }

    void (async () => {
      if (!(await stream())) await poll();
      if (!signal.aborted) over.current();
    })();
    return () => controller.abort();
  }, [processId, round]);

  return { progress, via, error };
}
