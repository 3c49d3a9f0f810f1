// Small helpers shared by route plugins: who is calling, and how a list is sent. Zod field
// schemas live in lib/schemas.ts, which stays free of Fastify for the data layer's sake.

import { Readable } from 'node:stream';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Listed, StreamedList } from './pagination.ts';

/** Who is calling: recorded on sessions and login challenges. */
export interface ClientInfo {
  ip: string | undefined;
  userAgent: string | undefined;
}

export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** The reason of a clientGoneSignal: the connection closed before the response was complete. */
export class ConnectionClosedError extends Error {
  constructor(
    /** The service was shutting down: its grace ended and it cut the connection, most likely. */
    readonly duringShutdown: boolean,
  ) {
    super(
      duringShutdown
        ? 'The service shut down before the request finished.'
        : 'The client closed the connection.',
    );
    this.name = 'ConnectionClosedError';
  }
}

/**
 * The client's address as a per-address throttle counts it: IPv4 as it is (an IPv4-mapped IPv6
 * address as its IPv4), IPv6 per /64, the block one subscriber holds, so stepping through the
 * addresses of one's own network starts no new count. @fastify/rate-limit's normalisation, so
 * the service's per-IP limits group addresses alike.
 */
export const throttledAddress = (ip: string | undefined): string => (ip ? normalizeIP(ip) : 'unknown');

/**
 * Aborted when the connection closes before the response is complete (the client left, or a
 * shutting-down server cut it: `shuttingDown` tells which), so long work done for it can stop.
 * The response's 'close' is the signal: the request's own 'close' also fires once its body has
 * merely been read.
 */
export function clientGoneSignal(reply: FastifyReply, shuttingDown?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  const onClose = () => {
    if (!response.writableFinished) {
      controller.abort(new ConnectionClosedError(shuttingDown?.aborted ?? false));
    }
  };
  if (response.destroyed) onClose();
  else response.once('close', onClose);
  return controller.signal;
}

/** Sends the items, with X-Total-Count when the list was paged (lib/pagination.ts). */
export function sendList<T>(reply: FastifyReply, listed: Listed<T>): T[] {
  if (listed.total !== undefined) reply.header('x-total-count', String(listed.total));
  return listed.items;
}

const COMMA = Buffer.from(',');

/**
 * Items joined with commas between a prefix and a suffix: a string when every item is one, else
 * bytes (items that are Buffers hold UTF-8 JSON, sent without decoding).
 */
function joinItems(prefix: string, items: (string | Buffer)[], suffix: string): string | Buffer {
  if (!items.some((item) => typeof item !== 'string')) return `${prefix}${items.join(',')}${suffix}`;
  const pieces: Buffer[] = [Buffer.from(prefix)];
  items.forEach((item, index) => {
    if (index > 0) pieces.push(COMMA);
    pieces.push(typeof item === 'string' ? Buffer.from(item) : item);
  });
  pieces.push(Buffer.from(suffix));
  return Buffer.concat(pieces);
}

/**
 * Sends a list as a JSON array of rows already rendered as JSON, with X-Total-Count when paged.
 * A list that fits its first batch goes out whole, with a Content-Length; a longer
 * one is written batch by batch (chunked), so memory holds a batch, not the list. When the
 * client leaves, the stream is destroyed and no further batch is read. An error after the first
 * byte can no longer become an error answer: the connection is cut (docs/api.md, Locations).
 */
export function sendStreamedList<T = Buffer>(
  reply: FastifyReply,
  list: StreamedList<T>,
  /** How one item is written; items that are JSON already (texts or bytes) need none. */
  render?: (item: T) => string,
): FastifyReply {
  if (list.total !== undefined) reply.header('x-total-count', String(list.total));
  reply.type('application/json; charset=utf-8');
  const texts = (items: T[]): (string | Buffer)[] =>
    render ? items.map(render) : (items as (string | Buffer)[]);
  if (list.complete) {
    const whole = joinItems('[', texts(list.first), ']');
    return reply.send(typeof whole === 'string' ? Buffer.from(whole) : whole);
  }
  async function* body() {
    yield joinItems('[', texts(list.first), '');
    for await (const batch of list.rest) yield joinItems(',', texts(batch), '');
    yield ']';
  }
  return reply.send(Readable.from(body(), { objectMode: false, highWaterMark: 64 * 1024 }));
}

/**
 * The JSON of one item as the route's serializer writes it (fastify-type-provider-zod: the
 * schema's encoding, then JSON.stringify), for items of a streamed list.
 */
export const renderWith =
  <T>(schema: z.ZodType<unknown, T>) =>
  (item: T): string =>
    JSON.stringify(z.encode(schema, item));

/**
 * Route `logSerializers` that log a request's path without its query string: for routes whose
 * query holds what visitors type or a token (the widget's search). Fields as Fastify's own.
 */
export const pathOnlyLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: request.url.split('?')[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/** If-None-Match holds one of the tags (weak or strong, in a list, or `*`). */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etags: readonly string[]): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || etags.includes(tag));
}
