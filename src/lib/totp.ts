// TOTP (RFC 6238) through otpauth: SHA-1, 6 digits, 30 s steps, one step of drift either way
// (docs/api.md, "Second factor and the login challenge"). Callers refuse a step already used
// (replay).
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
const TOTP_OPTIONS = { algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS } as const;

/** A new random secret (160 bits, as RFC 4226 recommends), base32-encoded. */
export const createTotpSecret = () => new Secret({ size: 20 }).base32;

export function totpUri(secretBase32: string, label: string, issuer: string): string {
  return new TOTP({ ...TOTP_OPTIONS, issuer, label, secret: Secret.fromBase32(secretBase32) }).toString();
}

/** The code of a step, for tests and tools. */
export const totpCode = (secretBase32: string, timestampMs = Date.now()) =>
  TOTP.generate({ ...TOTP_OPTIONS, secret: Secret.fromBase32(secretBase32), timestamp: timestampMs });

/**
 * The time step the code belongs to (now, one before or one after), or undefined when it
 * matches none. Steps let the caller refuse a code already used in its step.
 */
export function matchTotp(secretBase32: string, code: string, timestampMs = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({
    ...TOTP_OPTIONS,
    token: code,
    secret: Secret.fromBase32(secretBase32),
    timestamp: timestampMs,
    window: 1,
  });
  return delta === null ? undefined : Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
