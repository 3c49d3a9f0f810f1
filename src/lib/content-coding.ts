// Content codings (br, gzip, identity), one definition for every route that sends a body in
// more than one: the widget payload, /widget.js, /cdn files and /openapi.json. Which coding an
// Accept-Encoding header picks, how bodies are compressed (fast enough for a request path, or
// as small as possible for a build), and how a body held in several codings is sent: Vary,
// Content-Encoding, a strong ETag per representation and 304 (docs/api.md, Frame: compression).
import { promisify } from 'node:util';
import {
  type BrotliOptions,
  brotliCompress,
  gzip,
  type ZlibOptions,
  constants as zlibConstants,
} from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHolds } from './http.ts';

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Every coding, in the order preferred when a client weighs several alike. */
export const CONTENT_CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/** The weight of identity when the header names neither it nor `*`: acceptable, but last. */
const UNNAMED_IDENTITY_Q = 0.001;

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3), among those `available`:
 * the one with the highest q (named, or through `*`; q=0 refuses), br before gzip before
 * identity on a tie. Identity counts as acceptable when the header does not weigh it, and is
 * sent when nothing else is acceptable (never a 406). No header, or an empty one: identity.
 */
export function chooseContentCoding(
  acceptEncoding: string | undefined,
  available: readonly ContentCoding[] = CONTENT_CODINGS,
): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const star = q.get('*');
  const qOf = (coding: ContentCoding) =>
    q.get(coding) ?? star ?? (coding === 'identity' ? UNNAMED_IDENTITY_Q : 0);
  let best: ContentCoding = 'identity';
  let bestQ = 0;
  for (const coding of CONTENT_CODINGS) {
    if (!available.includes(coding)) continue;
    const value = qOf(coding);
    if (value > bestQ) {
      best = coding;
      bestQ = value;
    }
  }
  return best;
}

/**
 * - `fast`: for a request path or a write (gzip 6, brotli 5: brotli 5 is about as fast as gzip
 *   and smaller; brotli 11 takes seconds on a multi-megabyte payload). Past LARGE_BODY_BYTES
 *   brotli 4: on the 40 MB version file of a 100,000-location finder, quality 5 took 1.2 s of
 *   a publish where quality 4 takes half that for a file about a fifth larger.
 * - `max`: for a build, made once and sent for a long time (gzip 9, brotli 11).
 */
export type CompressionEffort = 'fast' | 'max';

/** From here on, `fast` brotli trades some size for time (see CompressionEffort). */
export const LARGE_BODY_BYTES = 8 * 1024 * 1024;

const brotliQuality = (effort: CompressionEffort, sizeHint: number) =>
  effort === 'max' ? 11 : sizeHint > LARGE_BODY_BYTES ? 4 : 5;

export function compressionOptions(
  effort: CompressionEffort,
  sizeHint: number,
): { gzip: ZlibOptions; br: BrotliOptions } {
  return {
    gzip: { level: effort === 'max' ? 9 : 6 },
    br: {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality(effort, sizeHint),
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: sizeHint,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    },
  };
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A body in each coding; gzip and br absent when the body is only kept as it is. */
export interface EncodedBody {
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/** Its form in one coding, compressed off the event loop (zlib's thread pool). */
export function compressTo(
  identity: Buffer,
  coding: Exclude<ContentCoding, 'identity'>,
  effort: CompressionEffort,
): Promise<Buffer> {
  const options = compressionOptions(effort, identity.length);
  return coding === 'gzip' ? gzipAsync(identity, options.gzip) : brotliAsync(identity, options.br);
}

/** Its gzip and br forms, compressed off the event loop (zlib's thread pool). */
export async function compressBody(
  identity: Buffer,
  effort: CompressionEffort,
): Promise<Required<EncodedBody>> {
  const [gz, br] = await Promise.all([
    compressTo(identity, 'gzip', effort),
    compressTo(identity, 'br', effort),
  ]);
  return { identity, gzip: gz, br };
}

/** The strong ETag of one representation: `"{tag}"`, `"{tag}-gzip"`, `"{tag}-br"` (RFC 9110 §8.8.3). */
export const etagOf = (tag: string, coding: ContentCoding) =>
  coding === 'identity' ? `"${tag}"` : `"${tag}-${coding}"`;

export interface SendEncodedOptions {
  /** A hash of the identity bytes: each representation's ETag, and 304 on If-None-Match. */
  tag?: string;
  /** Request headers the answer depends on besides Accept-Encoding (the payload: Origin). */
  vary?: string[];
}

/** Adds header names to Vary, keeping what is there (CORS adds Origin). */
function addVary(reply: FastifyReply, names: string[]) {
  const current = String(reply.getHeader('vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const lower = new Set(current.map((name) => name.toLowerCase()));
  const added = names.filter((name) => !lower.has(name.toLowerCase()));
  if (added.length > 0) reply.header('vary', [...current, ...added].join(', '));
}

/**
 * The headers of the representation in `coding`, one of `available`: Content-Encoding,
 * `Vary: Accept-Encoding` (when there is a choice) and, with a tag, its ETag. True when
 * If-None-Match holds the tag of any representation: the caller answers 304.
 */
export function setRepresentationHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  coding: ContentCoding,
  available: readonly ContentCoding[],
  options: SendEncodedOptions = {},
): boolean {
  addVary(reply, [...(options.vary ?? []), ...(available.length > 1 ? ['Accept-Encoding'] : [])]);
  const { tag } = options;
  if (tag !== undefined) {
    reply.header('etag', etagOf(tag, coding));
    const etags = available.map((each) => etagOf(tag, each));
    if (ifNoneMatchHolds(request.headers['if-none-match'], etags)) return true;
  }
  if (coding !== 'identity') reply.header('content-encoding', coding);
  return false;
}

/**
 * Sends the representation Accept-Encoding picks among those `body` holds, with its headers
 * (setRepresentationHeaders), or 304. Content-Length follows the bytes sent; HEAD sends the
 * same headers. The caller sets Content-Type and Cache-Control.
 */
export function sendEncoded(
  request: FastifyRequest,
  reply: FastifyReply,
  body: EncodedBody,
  options: SendEncodedOptions = {},
): FastifyReply {
  const available = CONTENT_CODINGS.filter((coding) => body[coding] !== undefined);
  const coding = chooseContentCoding(request.headers['accept-encoding'], available);
  // No body at all: `null` would be serialized as JSON.
  if (setRepresentationHeaders(request, reply, coding, available, options)) return reply.code(304).send();
  return reply.send(body[coding]);
}
