import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchTotp, totpCode } from '../src/lib/totp.ts';
import { loginChallengesTable, recoveryCodesTable } from '../src/modules/auth/two-factor/two-factor.table.ts';
import { usersTable } from '../src/modules/users/users.table.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from './factories/users.ts';
import { type FakeSmtp, startFakeSmtp } from './fakes/smtp.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

// Each test logs in from its own address, so the login throttle of one never blocks another.
let address = 0;
const nextIp = () => `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

async function newUser() {
  const user = await createUser(ctx.deps);
  return { user, headers: bearer(await tokenFor(ctx.deps, user)), ip: nextIp() };
}

const login = (email: string, ip: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: ip,
    payload: { email, password: DEFAULT_PASSWORD },
  });

const complete = (challengeToken: string, code: string, ip: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/login/2fa',
    remoteAddress: ip,
    payload: { challenge_token: challengeToken, code },
  });

/** Enrols TOTP and returns the secret and the recovery codes. */
async function enrolTotp(headers: Record<string, string>) {
  const setup = await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/totp/setup', headers });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const confirm = await ctx.app.inject({
    method: 'POST',
    url: '/api/me/2fa/totp/confirm',
    headers,
    payload: { code: totpCode(secret) },
  });
  expect(confirm.statusCode).toBe(200);
  return { secret: secret as string, recoveryCodes: confirm.json().recovery_codes as string[] };
}

/** A code of the next 30 s step: valid (one step of drift) and not yet used. */
const nextStepCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

describe('TOTP against RFC 6238', () => {
  // Appendix B, SHA-1: the seed is the ASCII string "12345678901234567890"; the RFC's codes
  // have 8 digits, ours 6, which are their last six (the same truncated value, mod 10^6).
  const secret = Secret.fromLatin1('12345678901234567890').base32;
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];

  it.each(vectors)('at %i s the code is the last six digits of %s', (seconds, code) => {
    expect(totpCode(secret, seconds * 1000)).toBe(code.slice(-6));
    const step = Math.floor(seconds / 30);
    expect(matchTotp(secret, code.slice(-6), seconds * 1000)).toBe(step);
    // One step of drift each way, never two.
    expect(matchTotp(secret, code.slice(-6), (seconds + 30) * 1000)).toBe(step);
    expect(matchTotp(secret, code.slice(-6), (seconds - 30) * 1000)).toBe(step);
    expect(matchTotp(secret, code.slice(-6), (seconds + 90) * 1000)).toBeUndefined();
  });

  it('refuses codes that are not six digits', () => {
    expect(matchTotp(secret, '94287082', 59_000)).toBeUndefined();
    expect(matchTotp(secret, '28708a', 59_000)).toBeUndefined();
  });
});

describe('TOTP enrolment', () => {
  it('sets up with a secret, an otpauth URI and an SVG QR code, storing the secret encrypted', async () => {
    const { user, headers } = await newUser();
    const res = await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/totp/setup', headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Location%20Finder:/);
    expect(body.otpauth_uri).toContain(`secret=${body.secret}`);
    expect(body.qr_code_uri).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(body.qr_code_uri.split(',')[1], 'base64').toString('utf8');
    expect(svg).toContain('<svg');
    const [row] = await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, user.id));
    expect(row!.totpPendingSecretEncrypted).toBeTruthy();
    expect(row!.totpPendingSecretEncrypted).not.toContain(body.secret);
    expect(row!.totpEnabledAt).toBeNull();
  });

  it('refuses a wrong code, then activates with a right one and hands out ten recovery codes once', async () => {
    const { user, headers } = await newUser();
    const { secret } = (
      await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/totp/setup', headers })
    ).json();
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/2fa/totp/confirm',
      headers,
      payload: { code: totpCode(secret, Date.now() + 120_000) },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ code: ['The code is invalid.'] });
    let [row] = await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, user.id));
    expect(row!.totpEnabledAt).toBeNull();

    const right = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/2fa/totp/confirm',
      headers,
      payload: { code: totpCode(secret) },
    });
    expect(right.statusCode).toBe(200);
    const { enabled, recovery_codes: codes } = right.json();
    expect(enabled).toBe(true);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    [row] = await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, user.id));
    expect(row!.totpEnabledAt).toBeInstanceOf(Date);
    expect(row!.totpPendingSecretEncrypted).toBeNull();
    const stored = await ctx.deps.db
      .select()
      .from(recoveryCodesTable)
      .where(eq(recoveryCodesTable.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));

    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(me.json().two_factor).toEqual({ totp_enabled: true, email_enabled: false });
  });

  it('answers 409 to confirm without setup and to setup when already on', async () => {
    const { headers } = await newUser();
    const early = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/2fa/totp/confirm',
      headers,
      payload: { code: '123456' },
    });
    expect(early.statusCode).toBe(409);
    await enrolTotp(headers);
    const again = await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/totp/setup', headers });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict');
  });

  it('names a missing code and answers 401 without a token', async () => {
    const { headers } = await newUser();
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/2fa/totp/confirm',
      headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ code: ['The code field is required.'] });
    for (const [method, url] of [
      ['POST', '/api/me/2fa/totp/setup'],
      ['POST', '/api/me/2fa/totp/confirm'],
      ['DELETE', '/api/me/2fa/totp'],
      ['POST', '/api/me/2fa/email/enable'],
      ['DELETE', '/api/me/2fa/email'],
      ['POST', '/api/me/2fa/recovery-codes'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('login with TOTP', () => {
  it('answers a challenge instead of a token, and the code completes it', async () => {
    const { user, headers, ip } = await newUser();
    const { secret } = await enrolTotp(headers);
    const first = await login(user.email, ip);
    expect(first.statusCode).toBe(200);
    const challenge = first.json();
    expect(challenge).toEqual({
      two_factor_required: true,
      challenge_token: expect.any(String),
      methods: ['totp', 'recovery_code'],
    });
    expect(challenge).not.toHaveProperty('token');

    const done = await complete(challenge.challenge_token, nextStepCode(secret), ip);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ token_type: 'Bearer', expires_in: 1209600, user: { id: user.id } });
    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(done.json().token) });
    expect(me.statusCode).toBe(200);

    // The same challenge cannot be used twice.
    const twice = await complete(challenge.challenge_token, totpCode(secret, Date.now() + 30_000), ip);
    expect(twice.statusCode).toBe(401);
    expect(twice.json()).toEqual({
      message: 'The login challenge is invalid or has expired.',
      code: 'unauthenticated',
    });
  });

  it('refuses a code already used in its step', async () => {
    const { user, headers, ip } = await newUser();
    const { secret } = await enrolTotp(headers);
    const code = nextStepCode(secret);
    const one = (await login(user.email, ip)).json();
    expect((await complete(one.challenge_token, code, ip)).statusCode).toBe(200);
    const two = (await login(user.email, ip)).json();
    const replay = await complete(two.challenge_token, code, ip);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe('The code is invalid.');
  });

  it('kills a challenge after five wrong codes, and throttles the user’s codes', async () => {
    const { user, headers, ip } = await newUser();
    const { secret } = await enrolTotp(headers);
    const { challenge_token: token } = (await login(user.email, ip)).json();
    for (let i = 0; i < 5; i++) {
      const wrong = await complete(token, '000000' === nextStepCode(secret) ? '111111' : '000000', ip);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe('The code is invalid.');
    }
    const [row] = await ctx.deps.db
      .select()
      .from(loginChallengesTable)
      .where(eq(loginChallengesTable.userId, user.id));
    expect(row!.failedAttempts).toBe(5);
    const late = await complete(token, nextStepCode(secret), ip);
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe('The login challenge is invalid or has expired.');
    // The password is still right, so a fresh challenge is given, but no code is checked until
    // the user's quarter hour of wrong codes is over.
    const fresh = await login(user.email, ip);
    expect(fresh.statusCode).toBe(200);
    const throttled = await complete(fresh.json().challenge_token, nextStepCode(secret), ip);
    expect(throttled.statusCode).toBe(429);
  });

  it('refuses an expired challenge and an unknown token', async () => {
    const { user, headers, ip } = await newUser();
    const { secret } = await enrolTotp(headers);
    const { challenge_token: token } = (await login(user.email, ip)).json();
    await ctx.deps.db
      .update(loginChallengesTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginChallengesTable.userId, user.id));
    expect((await complete(token, nextStepCode(secret), ip)).statusCode).toBe(401);
    expect((await complete('no-such-challenge', nextStepCode(secret), ip)).statusCode).toBe(401);
    const missing = await ctx.app.inject({ method: 'POST', url: '/api/login/2fa', payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['challenge_token', 'code']);
  });

  it('turning TOTP off gives tokens at login again and deletes the recovery codes', async () => {
    const { user, headers, ip } = await newUser();
    await enrolTotp(headers);
    const off = await ctx.app.inject({ method: 'DELETE', url: '/api/me/2fa/totp', headers });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false });
    const res = await login(user.email, ip);
    expect(res.json()).toHaveProperty('token');
    const codes = await ctx.deps.db
      .select()
      .from(recoveryCodesTable)
      .where(eq(recoveryCodesTable.userId, user.id));
    expect(codes).toHaveLength(0);
  });
});

describe('recovery codes', () => {
  it('each works once, and regenerating kills the old ones', async () => {
    const { user, headers, ip } = await newUser();
    const { recoveryCodes } = await enrolTotp(headers);
    const first = (await login(user.email, ip)).json();
    const used = await complete(first.challenge_token, recoveryCodes[0]!.toUpperCase(), ip);
    expect(used.statusCode).toBe(200);

    const second = (await login(user.email, ip)).json();
    const reused = await complete(second.challenge_token, recoveryCodes[0]!, ip);
    expect(reused.statusCode).toBe(401);

    const regenerated = await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/recovery-codes', headers });
    expect(regenerated.statusCode).toBe(200);
    const fresh: string[] = regenerated.json().recovery_codes;
    expect(fresh).toHaveLength(10);
    const stale = await complete(second.challenge_token, recoveryCodes[1]!, ip);
    expect(stale.statusCode).toBe(401);
    const ok = await complete(second.challenge_token, fresh[0]!, ip);
    expect(ok.statusCode).toBe(200);
  });

  it('answers 409 when no second factor is on', async () => {
    const { headers } = await newUser();
    const res = await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/recovery-codes', headers });
    expect(res.statusCode).toBe(409);
  });
});

describe('codes by email', () => {
  /** The newest .eml for the address (no SMTP_URL in these tests: mail goes to DATA_DIR/mail). */
  function lastCodeMailedTo(email: string): string {
    const dir = path.join(ctx.config.dataDir, 'mail');
    const files = readdirSync(dir).sort();
    for (const file of files.reverse()) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      if (text.includes(`To: ${email}`)) {
        const match = /Your sign-in code is (\d{6})/.exec(text);
        if (match) return match[1]!;
      }
    }
    throw new Error(`no code mailed to ${email}`);
  }

  it('mails a six-digit code at login, which completes the challenge', async () => {
    const { user, headers, ip } = await newUser();
    const on = await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/email/enable', headers });
    expect(on.json()).toEqual({ email_enabled: true });
    const challenge = (await login(user.email, ip)).json();
    expect(challenge.methods).toEqual(['email']);
    const code = lastCodeMailedTo(user.email);
    const wrong = await complete(challenge.challenge_token, code === '000000' ? '000001' : '000000', ip);
    expect(wrong.statusCode).toBe(401);
    const done = await complete(challenge.challenge_token, code, ip);
    expect(done.statusCode).toBe(200);
    expect(done.json().user.two_factor).toEqual({ totp_enabled: false, email_enabled: true });
  });

  it('refuses a mailed code after ten minutes', async () => {
    const { user, headers, ip } = await newUser();
    await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/email/enable', headers });
    const challenge = (await login(user.email, ip)).json();
    const code = lastCodeMailedTo(user.email);
    await ctx.deps.db
      .update(loginChallengesTable)
      .set({ emailCodeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginChallengesTable.userId, user.id));
    expect((await complete(challenge.challenge_token, code, ip)).statusCode).toBe(401);
  });

  it('turning it off gives tokens at login again', async () => {
    const { user, headers, ip } = await newUser();
    await ctx.app.inject({ method: 'POST', url: '/api/me/2fa/email/enable', headers });
    const off = await ctx.app.inject({ method: 'DELETE', url: '/api/me/2fa/email', headers });
    expect(off.json()).toEqual({ email_enabled: false });
    expect((await login(user.email, ip)).json()).toHaveProperty('token');
  });
});

describe('codes by email over SMTP', () => {
  let smtp: FakeSmtp;
  let smtpCtx: TestContext;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    smtpCtx = await createTestContext({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await smtpCtx?.close();
    await smtp?.close();
  });

  it('delivers the sign-in code to the SMTP server, in text and HTML', async () => {
    const user = await createUser(smtpCtx.deps);
    const headers = bearer(await tokenFor(smtpCtx.deps, user));
    await smtpCtx.app.inject({ method: 'POST', url: '/api/me/2fa/email/enable', headers });
    const ip = nextIp();
    const challenge = (
      await smtpCtx.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: ip,
        payload: { email: user.email, password: DEFAULT_PASSWORD },
      })
    ).json();
    const mail = await smtp.waitFor((message) => message.to.includes(user.email));
    const code = /Your sign-in code is (\d{6})/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(`<strong>${code}</strong>`);
    const done = await smtpCtx.app.inject({
      method: 'POST',
      url: '/api/login/2fa',
      remoteAddress: ip,
      payload: { challenge_token: challenge.challenge_token, code },
    });
    expect(done.statusCode).toBe(200);
  });
});
