// The Paddle-Signature check (docs/api.md, "The webhook: POST /api/webhooks/paddle"), as a pure
// function: a known answer published in Paddle's own SDK tests, rotation with several h1 values,
// the five-minute window both ways, and every malformed header refused with its reason.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  parseSignatureHeader,
  SIGNATURE_TOLERANCE_SECONDS,
  verifyPaddleSignature,
} from '../src/modules/billing/paddle.signature.ts';

// From PaddleHQ/paddle-node-sdk (webhooks-validator.test.ts): HMAC-SHA256('VALID_SECRET', '1698796800:' + body).
const KNOWN = {
  body: '{"data": ["1", "2"]}',
  ts: 1698796800,
  secret: 'VALID_SECRET',
  h1: 'a300428748dce5c70e4da19bffd60769591ea969c99dea3105d0ec9612cf43f9',
};
const at = (seconds: number) => new Date(seconds * 1000);
const sign = (secret: string, ts: number, body: string) =>
  createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex');

describe('verifyPaddleSignature', () => {
  it("accepts Paddle's published example at its own time", () => {
    expect(
      verifyPaddleSignature({
        header: `ts=${KNOWN.ts};h1=${KNOWN.h1}`,
        rawBody: KNOWN.body,
        secret: KNOWN.secret,
        now: at(KNOWN.ts + 1),
      }),
    ).toEqual({ valid: true });
  });

  it('refuses the same signature over a body that differs by a single space', () => {
    expect(
      verifyPaddleSignature({
        header: `ts=${KNOWN.ts};h1=${KNOWN.h1}`,
        rawBody: '{"data": ["1", "2"] }',
        secret: KNOWN.secret,
        now: at(KNOWN.ts),
      }),
    ).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('refuses another secret and a timestamp that was changed after signing', () => {
    const base = { rawBody: KNOWN.body, now: at(KNOWN.ts) };
    expect(
      verifyPaddleSignature({ ...base, header: `ts=${KNOWN.ts};h1=${KNOWN.h1}`, secret: 'OTHER_SECRET' }),
    ).toEqual({ valid: false, reason: 'mismatch' });
    expect(
      verifyPaddleSignature({ ...base, header: `ts=${KNOWN.ts + 1};h1=${KNOWN.h1}`, secret: KNOWN.secret }),
    ).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('accepts any one of several h1 values (secret rotation), in any position', () => {
    const now = 1_800_000_000;
    const good = sign('new-secret', now, 'body');
    const wrong = sign('old-secret', now, 'body');
    for (const header of [
      `ts=${now};h1=${wrong};h1=${good}`,
      `ts=${now};h1=${good};h1=${wrong}`,
      `h1=${good};ts=${now}`,
    ]) {
      expect(
        verifyPaddleSignature({ header, rawBody: 'body', secret: 'new-secret', now: at(now) }),
        header,
      ).toEqual({
        valid: true,
      });
    }
    expect(
      verifyPaddleSignature({
        header: `ts=${now};h1=${wrong}`,
        rawBody: 'body',
        secret: 'new-secret',
        now: at(now),
      }),
    ).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('ignores other schemes (h2=) and compares hex case-insensitively', () => {
    const now = 1_800_000_000;
    const good = sign('s', now, 'b');
    expect(
      verifyPaddleSignature({
        header: `ts=${now};h2=zzz;h1=${good.toUpperCase()}`,
        rawBody: 'b',
        secret: 's',
        now: at(now),
      }),
    ).toEqual({ valid: true });
  });

  it('allows five minutes either way and no more', () => {
    const ts = 1_800_000_000;
    const header = `ts=${ts};h1=${sign('s', ts, 'b')}`;
    const check = (now: number) => verifyPaddleSignature({ header, rawBody: 'b', secret: 's', now: at(now) });
    expect(check(ts + SIGNATURE_TOLERANCE_SECONDS)).toEqual({ valid: true });
    expect(check(ts - SIGNATURE_TOLERANCE_SECONDS)).toEqual({ valid: true });
    expect(check(ts + SIGNATURE_TOLERANCE_SECONDS + 1)).toEqual({ valid: false, reason: 'stale' });
    expect(check(ts - SIGNATURE_TOLERANCE_SECONDS - 1)).toEqual({ valid: false, reason: 'stale' });
    expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    [['ts=1;h1=ab', 'ts=1;h1=ab'], 'malformed'],
    ['garbage', 'malformed'],
    ['h1=abc', 'malformed'],
    ['ts=1698796800', 'malformed'],
    ['ts=1698796800;h1=', 'malformed'],
    ['ts=abc;h1=abc', 'malformed'],
    ['ts=1;ts=2;h1=abc', 'malformed'],
    ['ts=-5;h1=abc', 'malformed'],
  ] as const)('refuses the header %j as %s', (header, reason) => {
    expect(
      verifyPaddleSignature({
        header: header as string | string[] | undefined,
        rawBody: 'b',
        secret: 's',
        now: at(1698796800),
      }),
    ).toEqual({ valid: false, reason });
  });
});

describe('parseSignatureHeader', () => {
  it('reads ts and every h1, trimming spaces', () => {
    expect(parseSignatureHeader(' ts=12 ; h1=AA ; h1=bb ')).toEqual({ ts: 12, h1: ['aa', 'bb'] });
  });
});
