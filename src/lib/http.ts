// Small helpers shared by route plugins: who is calling, and how a list is sent. Zod field
// schemas live in lib/schemas.ts, which stays free of Fastify for the data layer's sake.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Listed } from './pagination.ts';

/** Who is calling: recorded on sessions and login challenges. */
export interface ClientInfo {
  ip: string | undefined;
  userAgent: string | undefined;
}

export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** Sends the items, with X-Total-Count when the list was paged (lib/pagination.ts). */
export function sendList<T>(reply: FastifyReply, listed: Listed<T>): T[] {
  if (listed.total !== undefined) reply.header('x-total-count', String(listed.total));
  return listed.items;
}

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
