// src/lib/crypto.ts: sealed secrets, constant-time comparison, password hashing.
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  randomToken,
  SecretBox,
  safeEqual,
  sha1Hex,
  sha256Hex,
  verifyPassword,
} from '../src/lib/crypto.ts';

const box = new SecretBox(Buffer.alloc(32, 3));

describe('SecretBox', () => {
  it('round-trips, with a fresh IV each time', () => {
    const first = box.encrypt('sk_live_123');
    const second = box.encrypt('sk_live_123');
    expect(first).not.toBe(second);
    expect(first).not.toContain('sk_live');
    expect(box.decrypt(first)).toBe('sk_live_123');
    expect(box.decrypt(second)).toBe('sk_live_123');
  });

  it('refuses a tampered value, a value sealed with another key and garbage', () => {
    const sealed = box.encrypt('secret');
    const [iv, ciphertext, mac] = sealed.split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => box.decrypt([iv, flipped.toString('base64url'), mac].join('.'))).toThrow('authentication');
    expect(() => new SecretBox(Buffer.alloc(32, 4)).decrypt(sealed)).toThrow('authentication');
    expect(() => box.decrypt('garbage')).toThrow('Malformed');
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow();
  });
});

describe('helpers', () => {
  it('hashes parts as their concatenation', () => {
    // SHA-1 of "abc" (FIPS 180 test vector).
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1Hex(Buffer.from('a'), 'b', Buffer.from('c'))).toBe(sha1Hex('abc'));
    expect(sha1Hex('[', Buffer.from('{"id":1}'), ']')).toBe(sha1Hex('[{"id":1}]'));
  });

  it('compares strings exactly', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });

  it('makes url-safe random tokens of the asked size', () => {
    const token = randomToken(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(32)).not.toBe(token);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes passwords with argon2id', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
  });
});
