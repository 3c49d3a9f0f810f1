// The one-time codes of the second factor (docs/api.md, "Second factor and the login challenge"):
// recovery codes and mailed sign-in codes, and how each is hashed before it is stored. Plain codes
// are only ever in the user's hands and in the one response or mail that delivers them.
import { randomInt } from 'node:crypto';
import { sha256Hex } from '../../../lib/crypto.ts';

export const RECOVERY_CODE_COUNT = 10;
/** Recovery code alphabet: no 0/o, 1/l/i, so codes survive being read aloud or written down. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** "ab3de-fgh7k": 10 characters of a 31-letter alphabet, about 50 bits. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What the user typed, as stored: lower case, no spaces or dashes. */
export const recoveryHash = (code: string) => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));

/** A 6-digit sign-in code for the mail. */
export const newEmailCode = () => String(randomInt(1_000_000)).padStart(6, '0');

/** A mailed code is hashed with its challenge, so one hash says nothing about another challenge. */
export const emailCodeHash = (challengeTokenHash: string, code: string) =>
  sha256Hex(`${challengeTokenHash}:${code}`);
