// Small wrappers over node:crypto and argon2, so no module handles keys or hashes by hand.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import argon2 from 'argon2';

/** Opaque random token for URLs and headers (challenge tokens, invite tokens, finder tokens). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** Tokens are stored as SHA-256 digests: they are long random values, so no salt or KDF is needed. */
export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** Names published files by their content (the widget payload's versions, a chunked publish's files). */
export const sha1Hex = (...parts: (string | Buffer)[]) => {
  // Parts in turn: the hash of their concatenation, without copying them into one buffer.
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

/** Constant-time comparison of two strings (signatures, codes, digests). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    // Still spend the comparison so the length mismatch does not answer faster.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/**
 * Secrets at rest (provider API keys, TOTP secrets; docs/api.md, Secrets at rest): AES-256-CBC with
 * a random IV and an HMAC-SHA256 over iv+ciphertext (encrypt-then-MAC) so a tampered value is
 * refused instead of decrypting to garbage. Encryption and MAC keys are derived from APP_KEY.
 * Format: base64url(iv).base64url(ciphertext).base64url(mac)
 */
export class SecretBox {
  private readonly encKey: Buffer;
  private readonly macKey: Buffer;

  constructor(appKey: Buffer) {
    if (appKey.length !== 32) throw new Error('APP_KEY must be 32 bytes');
    this.encKey = createHmac('sha256', appKey).update('encryption').digest();
    this.macKey = createHmac('sha256', appKey).update('authentication').digest();
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', this.encKey, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const mac = this.mac(iv, ciphertext);
    return [iv, ciphertext, mac].map((part) => part.toString('base64url')).join('.');
  }

  decrypt(sealed: string): string {
    const [ivPart, ciphertextPart, macPart] = sealed.split('.');
    if (!ivPart || !ciphertextPart || !macPart) throw new Error('Malformed encrypted value');
    const iv = Buffer.from(ivPart, 'base64url');
    const ciphertext = Buffer.from(ciphertextPart, 'base64url');
    const expected = this.mac(iv, ciphertext);
    const given = Buffer.from(macPart, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new Error('Encrypted value failed authentication');
    }
    const decipher = createDecipheriv('aes-256-cbc', this.encKey, iv);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }

  private mac(iv: Buffer, ciphertext: Buffer): Buffer {
    return createHmac('sha256', this.macKey).update(iv).update(ciphertext).digest();
  }
}
