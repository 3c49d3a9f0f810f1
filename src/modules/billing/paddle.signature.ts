// The Paddle-Signature check (docs/api.md, "The webhook: POST /api/webhooks/paddle"), pure:
// `Paddle-Signature: ts=<unix seconds>;h1=<hex>` where h1 = HMAC-SHA256(secret, `${ts}:${rawBody}`)
// over the body exactly as received. Paddle may send several h1 values (while a secret is being
// rotated); one match is enough. Compared in constant time; a timestamp more than five minutes away
// from now (either way) is refused, so a captured request cannot be replayed later.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/crypto.ts';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Why a signature was refused, for the log only: every refusal answers the same 401. */
export type SignatureRefusal = 'missing' | 'malformed' | 'stale' | 'mismatch';
export type SignatureCheck = { valid: true } | { valid: false; reason: SignatureRefusal };

export interface ParsedSignature {
  ts: number;
  h1: string[];
}

/** `ts=1671552777;h1=eb4d...` -> `{ts, h1: [...]}`; undefined unless it has one ts and an h1. */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  let ts: number | undefined;
  const h1: string[] = [];
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 'ts') {
      if (ts !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      ts = Number(value);
    } else if (key === 'h1' && value !== '') {
      h1.push(value.toLowerCase());
    }
  }
  if (ts === undefined || h1.length === 0) return undefined;
  return { ts, h1 };
}

export const signatureOf = (secret: string, ts: number, rawBody: string) =>
  createHmac('sha256', secret).update(`${ts}:${rawBody}`).digest('hex');

export interface VerifySignatureInput {
  /** The Paddle-Signature header as received (undefined when absent). */
  header: string | string[] | undefined;
  /** The request body exactly as received. */
  rawBody: string;
  secret: string;
  now?: Date;
  toleranceSeconds?: number;
}

export function verifyPaddleSignature({
  header,
  rawBody,
  secret,
  now = new Date(),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
}: VerifySignatureInput): SignatureCheck {
  if (header === undefined || header === '') return { valid: false, reason: 'missing' };
  // A repeated header is not something Paddle sends.
  if (Array.isArray(header)) return { valid: false, reason: 'malformed' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { valid: false, reason: 'malformed' };
  if (Math.abs(now.getTime() / 1000 - parsed.ts) > toleranceSeconds) return { valid: false, reason: 'stale' };
  const expected = signatureOf(secret, parsed.ts, rawBody);
  // Every candidate is compared (no early return), each in constant time.
  let matched = false;
  for (const candidate of parsed.h1) {
    if (safeEqual(candidate, expected)) matched = true;
  }
  return matched ? { valid: true } : { valid: false, reason: 'mismatch' };
}
