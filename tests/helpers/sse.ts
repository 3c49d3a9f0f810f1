// A server-sent-event client on node:http (what a browser's EventSource or a fetch-based client
// does): it parses frames as they arrive and records each one with the time it was read.
import { request } from 'node:http';

export interface SseFrame {
  /** `id:` of the frame, when it had one. */
  id?: string;
  /** `event:` name; undefined means the default `message`. */
  event?: string;
  data?: string;
  /** Comment lines (`: ping`). */
  comments: string[];
  retry?: number;
  receivedAt: number;
}

export interface SseConnection {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  frames: SseFrame[];
  /** Parsed `data:` JSON of the frames of the default event type. */
  messages(): Record<string, unknown>[];
  /** Resolves when the server ends the response (or the connection breaks). */
  ended: Promise<void>;
  endedAt(): number | undefined;
  waitFor(predicate: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function openSse(
  url: string,
  token: string,
  options: { lastEventId?: string; agent?: import('node:http').Agent } = {},
): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
        },
        agent: options.agent,
      },
      (res) => {
        const frames: SseFrame[] = [];
        const listeners = new Set<() => void>();
        let buffer = '';
        let endedAt: number | undefined;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let boundary = buffer.indexOf('\n\n');
          while (boundary >= 0) {
            const block = buffer.slice(0, boundary);
            buffer = buffer.slice(boundary + 2);
            const frame: SseFrame = { comments: [], receivedAt: performance.now() };
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) frame.comments.push(line.slice(1).trim());
              else {
                const colon = line.indexOf(':');
                const field = colon < 0 ? line : line.slice(0, colon);
                const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
                if (field === 'id') frame.id = value;
                else if (field === 'event') frame.event = value;
                else if (field === 'data')
                  frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
                else if (field === 'retry') frame.retry = Number(value);
              }
            }
            frames.push(frame);
            boundary = buffer.indexOf('\n\n');
          }
          for (const listener of listeners) listener();
        });
        const ended = new Promise<void>((done) => {
          const finish = () => {
            endedAt ??= performance.now();
            for (const listener of listeners) listener();
            done();
          };
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', finish);
        });
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          frames,
          messages: () =>
            frames
              .filter((frame) => frame.event === undefined && frame.data !== undefined)
              .map((frame) => JSON.parse(frame.data!) as Record<string, unknown>),
          ended,
          endedAt: () => endedAt,
          waitFor(predicate, timeoutMs = 15_000) {
            return new Promise<void>((done, fail) => {
              const check = () => {
                if (predicate(frames)) finish();
                else if (endedAt !== undefined)
                  finish(new Error(`the stream ended first: ${JSON.stringify(frames)}`));
              };
              const timer = setTimeout(
                () =>
                  finish(new Error(`no matching frame within ${timeoutMs} ms: ${JSON.stringify(frames)}`)),
                timeoutMs,
              );
              const finish = (error?: Error) => {
                clearTimeout(timer);
                listeners.delete(check);
                if (error) fail(error);
                else done();
              };
              listeners.add(check);
              check();
            });
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
