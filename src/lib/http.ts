// Small helpers shared by route plugins: who is calling, and how a list is sent. Zod field
// schemas live in lib/schemas.ts, which stays free of Fastify for the data layer's sake.

import { Readable } from 'node:stream';
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

/**
 * Aborted when the client goes away before its response is complete, so long work done for it
 * can stop. The response's 'close' is the signal: the request's own 'close' also fires once its
 * body has merely been read.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  const onClose = () => {
    if (!response.writableFinished) controller.abort(new Error('The client closed the connection.'));
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
 * A list that fits its first batch goes out whole, with a Content-Length, as before; a longer
 * one is written batch by batch (chunked), so memory holds a batch, not the list. When the
 * client leaves, the stream is destroyed and no further batch is read. An error after the first
 * byte can no longer become an error answer: the connection is cut (docs/api.md, Lists).
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
 * Sends bytes that already are the JSON the route's response schema describes (a cached widget
 * payload): Fastify serializes no Buffer, so the schema documents the body and nothing decodes
 * and encodes it again.
 */
export function sendJsonBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes);
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

export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): the acceptable one
 * (q > 0, named or through `*`) with the highest q, br before gzip on a tie; identity unless
 * it was refused. No header: identity.
 */
export function chooseContentCoding(acceptEncoding: string | undefined): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const qOf = (coding: string) => q.get(coding) ?? q.get('*') ?? 0;
  const br = qOf('br');
  const gz = qOf('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}
