// What happens to a request body an answer leaves unread (a 413 refusing it before or while it
// streams in, a 401 or 415 before an upload was looked at). Browsers' fetch and Node's fetch
// read the answer only once they have sent the whole body: a server that closes the connection
// right after answering (or resets it while bytes still arrive) leaves them with a network error
// instead of the answer. So the rest of the body is read and thrown away, and the connection is
// kept for the next request; but only up to a bound in bytes and in time, past which the
// connection is closed: a server must not read an endless upload for nothing.
import type { IncomingMessage } from 'node:http';

/** The least a refused body may still send: room for the 30 MB photo a phone takes. */
export const DRAIN_FLOOR_BYTES = 64 * 1024 * 1024;

/** How long a refused body may take to arrive, from the answer on. */
export const DRAIN_MAX_MS = 30_000;

export interface DrainBounds {
  /** Bytes read and discarded after the answer, at most. */
  maxBytes: number;
  /** Milliseconds the rest may take, at most. */
  maxMs: number;
}

/** The bounds for a route taking at most `limitBytes`: four times that, at least the floor. */
export const drainBoundsFor = (limitBytes: number): DrainBounds => ({
  maxBytes: Math.max(4 * limitBytes, DRAIN_FLOOR_BYTES),
  maxMs: DRAIN_MAX_MS,
});

/**
 * - `read`: the body has arrived already (or there is none): nothing to do.
 * - `too-long`: its declared length is past the bound: the caller answers with
 *   `Connection: close`, so the connection ends after the answer without reading any more.
 * - `draining`: the rest is being read and discarded; `onSettled` says how that ended.
 */
export type DrainStart = 'read' | 'too-long' | 'draining';

export interface DrainSettled {
  /** `drained`: the body ended within the bounds, the connection stays; `cut`: it was closed. */
  outcome: 'drained' | 'cut' | 'aborted';
  /** Bytes read and discarded after the start. */
  bytes: number;
  /** Why a connection was cut. */
  reason?: 'bytes' | 'time';
}

/**
 * Starts reading and discarding what is left of `request`'s body. Whoever was reading it (a
 * multipart parser that gave up at its limit) is detached first. Only bytes from now on count
 * towards the bound: what the route read before its refusal is within its own limit.
 */
export function drainUnreadBody(
  request: IncomingMessage,
  bounds: DrainBounds,
  onSettled?: (settled: DrainSettled) => void,
): DrainStart {
  if (request.complete || request.readableEnded || request.destroyed) return 'read';
  const declared = Number(request.headers['content-length']);
  if (declared > bounds.maxBytes) return 'too-long';

  // Once the answer is sent, Node no longer ends the request when the connection goes: the
  // socket's own close says the client left.
  const socket = request.socket as IncomingMessage['socket'] | null;
  let bytes = 0;
  let settled = false;
  const settle = (result: DrainSettled) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    request.off('data', onData);
    request.off('end', onEnd);
    request.off('close', onClose);
    socket?.off('close', onClose);
    onSettled?.(result);
  };
  const cut = (reason: 'bytes' | 'time') => {
    settle({ outcome: 'cut', bytes, reason });
    socket?.destroy();
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > bounds.maxBytes) cut('bytes');
  };
  const onEnd = () => settle({ outcome: 'drained', bytes });
  const onClose = () => settle({ outcome: request.readableEnded ? 'drained' : 'aborted', bytes });
  // An aborted request errs (ECONNRESET); 'close' follows and settles.
  const onError = () => {};
  const timer = setTimeout(() => cut('time'), bounds.maxMs);
  timer.unref();

  request.unpipe();
  request.on('data', onData);
  request.once('end', onEnd);
  request.once('close', onClose);
  socket?.once('close', onClose);
  request.on('error', onError);
  // unpipe() pauses the stream; a stream never read is paused too.
  request.resume();
  return 'draining';
}
