// Invites (docs/api.md, Invites and mail): POST /invite/send mails a link through a real SMTP
// server, and GET/POST /register/{token} turn it into an account that is a member of the workspace.
import { count, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/lib/crypto.ts';
import { invitesTable } from '../src/modules/invites/invites.table.ts';
import { type UserRow, usersTable } from '../src/modules/users/users.table.ts';
import { workspaceMembersTable, workspacesTable } from '../src/modules/workspaces/workspaces.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWorkspace } from './factories/workspaces.ts';
import { type FakeSmtp, type ReceivedMail, startFakeSmtp } from './fakes/smtp.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { waitForLockWaiters } from './helpers/lock-waiters.ts';

const MAIL_FROM = 'Location Finder <invites@example.test>';
const DAY_MS = 24 * 3600 * 1000;

let smtp: FakeSmtp;
let ctx: TestContext;
let owner: UserRow;
let adminToken: string;
let userToken: string;
let workspaceId: number;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  ctx = await createTestContext({ env: { SMTP_URL: smtp.url, MAIL_FROM } });
  owner = await createUser(ctx.deps);
  workspaceId = await createWorkspace(ctx.deps, owner, 'Acme Stores');
  adminToken = await tokenFor(ctx.deps, await createUser(ctx.deps, { role: 'admin', name: 'Ada Admin' }));
  userToken = await tokenFor(ctx.deps, owner);
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const newEmail = () => `invitee-${Math.random().toString(36).slice(2)}@example.test`;

const sendInvite = (payload: unknown, token = adminToken) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/invite/send',
    headers: bearer(token),
    payload: payload as object,
  });

const registerBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Grace Hopper',
  password: 'compiler-pioneer',
  password_confirmation: 'compiler-pioneer',
  ...overrides,
});

/** The registration link of a received invite, and its token. */
function linkOf(mail: ReceivedMail) {
  const match = mail.text.match(/http:\/\/app\.test\/app\/register\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no registration link in:\n${mail.text}`);
  return { link: match[0], token: match[1]!, apiPath: `/api/register/${match[1]}` };
}

/** Sends an invite and returns the response body, the mail and the link in it. */
async function invite(email = newEmail(), toWorkspace = workspaceId) {
  const res = await sendInvite({ email, workspace_id: toWorkspace });
  expect(res.statusCode).toBe(201);
  const mail = await smtp.waitFor(
    (received) => !seen.has(received) && received.to.some((to) => to.toLowerCase() === email.toLowerCase()),
  );
  seen.add(mail);
  return { email, body: res.json(), mail, ...linkOf(mail) };
}
const seen = new Set<ReceivedMail>();

const invitesFor = (email: string) =>
  ctx.deps.db.select().from(invitesTable).where(sql`lower(${invitesTable.email}) = lower(${email})`);

async function counts() {
  const [users] = await ctx.deps.db.select({ n: count() }).from(usersTable);
  const [invites] = await ctx.deps.db.select({ n: count() }).from(invitesTable);
  const [members] = await ctx.deps.db.select({ n: count() }).from(workspaceMembersTable);
  const [workspaces] = await ctx.deps.db.select({ n: count() }).from(workspacesTable);
  return {
    users: users!.n,
    invites: invites!.n,
    members: members!.n,
    workspaces: workspaces!.n,
    mails: smtp.messages.length,
  };
}

describe('POST /api/invite/send', () => {
  it('creates an invite, stores only the hash of its token and mails the link', async () => {
    const { email, body, mail, token, link } = await invite();

    expect(Object.keys(body).sort()).toEqual(['email', 'expires_at', 'id', 'workspace_id']);
    expect(body).toMatchObject({ email, workspace_id: workspaceId });
    expect(Math.abs(new Date(body.expires_at).getTime() - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);

    const rows = await invitesFor(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: body.id, workspaceId, tokenHash: sha256Hex(token) });
    expect(JSON.stringify(rows)).not.toContain(token);

    expect(mail.from).toBe(MAIL_FROM);
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toBe('You are invited to join Acme Stores');
    expect(mail.text).toContain('Ada Admin has invited you to join the workspace "Acme Stores"');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`<a href="${link}">`);
    expect(mail.html).toContain('<strong>Acme Stores</strong>');
    expect(token.length).toBeGreaterThanOrEqual(43);
  });

  it('sends a fresh invite for the same email and workspace, and the old link dies', async () => {
    const first = await invite();
    const second = await invite(first.email.toUpperCase());
    expect(second.token).not.toBe(first.token);

    expect((await ctx.app.inject({ method: 'GET', url: first.apiPath })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: second.apiPath })).statusCode).toBe(200);
    expect((await invitesFor(first.email)).map((row) => row.id)).toEqual([second.body.id]);
  });

  it('keeps invites of one email to different workspaces apart', async () => {
    const other = await createWorkspace(ctx.deps, owner, 'Second Shop');
    const first = await invite();
    const second = await invite(first.email, other);
    expect((await ctx.app.inject({ method: 'GET', url: first.apiPath })).json()).toEqual({
      email: first.email,
      workspace_name: 'Acme Stores',
    });
    expect((await ctx.app.inject({ method: 'GET', url: second.apiPath })).json()).toEqual({
      email: first.email,
      workspace_name: 'Second Shop',
    });
    expect(await invitesFor(first.email)).toHaveLength(2);
  });

  it('refuses an email that already has an account (case-insensitively), writing and sending nothing', async () => {
    const existing = await createUser(ctx.deps);
    const before = await counts();
    const res = await sendInvite({ email: existing.email.toUpperCase(), workspace_id: workspaceId });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { email: ['This email already has an account.'] },
    });
    expect(await counts()).toEqual(before);
  });

  it('invites the email of a deleted account (it may register again)', async () => {
    const gone = await createUser(ctx.deps, { deletedAt: new Date() });
    const res = await sendInvite({ email: gone.email, workspace_id: workspaceId });
    expect(res.statusCode).toBe(201);
  });

  it('answers 404 for an unknown workspace, writing and sending nothing', async () => {
    const before = await counts();
    const res = await sendInvite({ email: newEmail(), workspace_id: 999_999 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Workspace not found.', code: 'not_found' });
    expect(await counts()).toEqual(before);
  });

  it.each([
    [{}, ['email', 'workspace_id']],
    [{ email: 'not-an-email', workspace_id: 1 }, ['email']],
    [{ email: '', workspace_id: 1 }, ['email']],
    [{ email: 'a@example.test', workspace_id: 'one' }, ['workspace_id']],
    [{ email: 'a@example.test', workspace_id: -4 }, ['workspace_id']],
    [{ email: 'a@example.test', workspace_id: 1.5 }, ['workspace_id']],
    [{ email: 42, workspace_id: null }, ['email', 'workspace_id']],
  ])('answers 422 for %j naming %j, writing and sending nothing', async (payload, fields) => {
    const before = await counts();
    const res = await sendInvite(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('validation_failed');
    expect(Object.keys(res.json().errors).sort()).toEqual(fields);
    expect(await counts()).toEqual(before);
  });

  it('answers 403 to a user who is not an admin, before validating the body', async () => {
    const before = await counts();
    for (const payload of [{ email: newEmail(), workspace_id: workspaceId }, {}]) {
      const res = await sendInvite(payload, userToken);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'You do not have permission to access this resource.',
        code: 'forbidden',
      });
    }
    expect(await counts()).toEqual(before);
  });

  it('answers 401 without a token', async () => {
    const before = await counts();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/invite/send',
      payload: { email: newEmail(), workspace_id: workspaceId },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthenticated');
    expect(await counts()).toEqual(before);
  });

  it('escapes the workspace name in the HTML part', async () => {
    const name = '<b>Shop & Co</b>';
    const shop = await createWorkspace(ctx.deps, owner, name);
    const { mail, apiPath } = await invite(newEmail(), shop);
    expect(mail.html).toContain('<strong>&#60;b&#62;Shop &#38; Co&#60;/b&#62;</strong>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.text).toContain(`"${name}"`);
    expect(mail.subject).toBe(`You are invited to join ${name}`);
    expect((await ctx.app.inject({ method: 'GET', url: apiPath })).json().workspace_name).toBe(name);
  });
});

describe('GET and POST /api/register/{token}', () => {
  it('shows the invite, then registers a member of the workspace and deletes the invite', async () => {
    const { email, apiPath } = await invite();

    const shown = await ctx.app.inject({ method: 'GET', url: apiPath });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ email, workspace_name: 'Acme Stores' });

    const before = await counts();
    const res = await ctx.app.inject({ method: 'POST', url: apiPath, payload: registerBody() });
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(Object.keys(json).sort()).toEqual(['expires_in', 'token', 'token_type', 'user']);
    expect(json).toMatchObject({
      token_type: 'Bearer',
      expires_in: 1209600,
      user: {
        name: 'Grace Hopper',
        email,
        role: 'user',
        subscription_status: 'trialing',
        subscription_tier: 'free',
        permissions: [],
      },
    });
    const trialEnds = new Date(json.user.trial_ends_at).getTime();
    expect(Math.abs(trialEnds - (Date.now() + 14 * DAY_MS))).toBeLessThan(60_000);

    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(json.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: json.user.id, email });

    // A member of the invite's workspace only: no workspace of their own.
    const memberships = await ctx.deps.db
      .select({ workspaceId: workspaceMembersTable.workspaceId, role: workspaceMembersTable.role })
      .from(workspaceMembersTable)
      .where(eq(workspaceMembersTable.userId, json.user.id));
    expect(memberships).toEqual([{ workspaceId, role: 'member' }]);
    expect(await invitesFor(email)).toEqual([]);
    expect(await counts()).toEqual({
      ...before,
      users: before.users + 1,
      invites: before.invites - 1,
      members: before.members + 1,
    });

    // The workspace is reachable with the new token.
    const ws = await ctx.app.inject({
      method: 'GET',
      url: `/api/workspaces/${workspaceId}`,
      headers: bearer(json.token),
    });
    expect(ws.statusCode).toBe(200);

    // The token is spent.
    const again = await ctx.app.inject({ method: 'POST', url: apiPath, payload: registerBody() });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Invite not found or expired.', code: 'not_found' });
    expect((await ctx.app.inject({ method: 'GET', url: apiPath })).statusCode).toBe(404);
  });

  it('lets one of several simultaneous registrations with a token win', async () => {
    const { email, apiPath, body } = await invite();
    // Hold the invite row while three registrations start, so they truly overlap in the database.
    let requests: Promise<LightMyRequestResponse>[] = [];
    await ctx.deps.db.transaction(async (tx) => {
      await tx
        .select({ id: invitesTable.id })
        .from(invitesTable)
        .where(eq(invitesTable.id, body.id))
        .for('update');
      requests = [1, 2, 3].map(() =>
        ctx.app.inject({ method: 'POST', url: apiPath, payload: registerBody() }),
      );
      await waitForLockWaiters(ctx.deps.db, 3);
    });
    const results = await Promise.all(requests);
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 404, 404]);
    const users = await ctx.deps.db.select().from(usersTable).where(eq(usersTable.email, email));
    expect(users).toHaveLength(1);
  });

  it('answers 404 on GET and POST once the invite has expired, and the purge job removes it', async () => {
    const { email, apiPath, body } = await invite();
    await ctx.deps.db
      .update(invitesTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitesTable.id, body.id));

    const before = await counts();
    const shown = await ctx.app.inject({ method: 'GET', url: apiPath });
    expect(shown.statusCode).toBe(404);
    expect(shown.json()).toEqual({ message: 'Invite not found or expired.', code: 'not_found' });
    const res = await ctx.app.inject({ method: 'POST', url: apiPath, payload: registerBody() });
    expect(res.statusCode).toBe(404);
    expect(await counts()).toEqual(before);

    const purged = await ctx.deps.services.maintenance.purgeExpired();
    expect(purged.invites).toBeGreaterThanOrEqual(1);
    expect(await invitesFor(email)).toEqual([]);
  });

  it.each([
    ['an unknown token', 'x'.repeat(43)],
    ['a token too long to be one', 'x'.repeat(100)],
  ])('answers 404 for %s', async (_label, token) => {
    const before = await counts();
    for (const method of ['GET', 'POST'] as const) {
      const res = await ctx.app.inject({
        method,
        url: `/api/register/${token}`,
        ...(method === 'POST' ? { payload: registerBody() } : {}),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect(await counts()).toEqual(before);
  });

  describe('with a bad body', () => {
    let apiPath: string;
    let email: string;
    beforeAll(async () => {
      ({ apiPath, email } = await invite());
    });
    beforeEach(async () => {
      expect(await invitesFor(email)).toHaveLength(1);
    });

    it.each([
      [{}, ['name', 'password', 'password_confirmation']],
      [registerBody({ name: '  ' }), ['name']],
      [registerBody({ password: 'short', password_confirmation: 'short' }), ['password']],
      [registerBody({ password_confirmation: 'something-else' }), ['password']],
      [registerBody({ password_confirmation: undefined }), ['password_confirmation']],
      [registerBody({ name: 'x'.repeat(256) }), ['name']],
    ])('answers 422 for %j naming %j, writing nothing', async (payload, fields) => {
      const before = await counts();
      const res = await ctx.app.inject({ method: 'POST', url: apiPath, payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('validation_failed');
      expect(Object.keys(res.json().errors).sort()).toEqual(fields);
      expect(await counts()).toEqual(before);
    });
  });

  it('answers 422 errors.email when the email got an account in the meantime', async () => {
    const { email, apiPath } = await invite();
    await createUser(ctx.deps, { email: email.toUpperCase() });
    const before = await counts();
    const res = await ctx.app.inject({ method: 'POST', url: apiPath, payload: registerBody() });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: ['The email has already been taken.'] });
    expect(await counts()).toEqual(before);
    const sameEmail = await ctx.deps.db
      .select({ n: count() })
      .from(usersTable)
      .where(sql`lower(${usersTable.email}) = lower(${email})`);
    expect(sameEmail[0]!.n).toBe(1);
  });
});

describe('when the mail cannot be sent', () => {
  let down: TestContext;
  let downAdminToken: string;
  let downWorkspaceId: number;
  beforeAll(async () => {
    // A server that listened once and is gone: its port refuses connections.
    const gone = await startFakeSmtp();
    await gone.close();
    down = await createTestContext({ env: { SMTP_URL: gone.url } });
    const someone = await createUser(down.deps);
    downWorkspaceId = await createWorkspace(down.deps, someone, 'Quiet Shop');
    downAdminToken = await tokenFor(down.deps, await createUser(down.deps, { role: 'admin' }));
  });
  afterAll(async () => {
    await down?.close();
  });

  it('answers 502 provider_unavailable and leaves no invite, while an earlier invite keeps working', async () => {
    const email = newEmail();
    const earlierToken = 'earlier-invite-token-that-was-mailed-before';
    await down.deps.db.insert(invitesTable).values({
      email,
      workspaceId: downWorkspaceId,
      tokenHash: sha256Hex(earlierToken),
      expiresAt: new Date(Date.now() + DAY_MS),
    });

    const res = await down.app.inject({
      method: 'POST',
      url: '/api/invite/send',
      headers: bearer(downAdminToken),
      payload: { email, workspace_id: downWorkspaceId },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      message: 'The invitation email could not be sent. Try again later.',
      code: 'provider_unavailable',
    });

    const rows = await down.deps.db.select().from(invitesTable).where(eq(invitesTable.email, email));
    expect(rows.map((row) => row.tokenHash)).toEqual([sha256Hex(earlierToken)]);
    const shown = await down.app.inject({ method: 'GET', url: `/api/register/${earlierToken}` });
    expect(shown.json()).toEqual({ email, workspace_name: 'Quiet Shop' });
  });
});
