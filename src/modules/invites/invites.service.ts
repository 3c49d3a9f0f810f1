// Invitations (docs/api.md, Invites and mail): an admin invites an email into a workspace, the mail
// carries `APP_URL/app/register/{token}` (the dashboard's page), and the invitee registers through it, joining that workspace
// as a member. The token lives only in the mail; the database keeps its SHA-256 for 7 days.
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { hashPassword, randomToken, sha256Hex } from '../../lib/crypto.ts';
import { pgErrorCode } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/http.ts';
import { escapeHtml, type Mailer, type MailMessage } from '../../lib/mail.ts';
import type { TokenResponse } from '../auth/auth.schemas.ts';
import { type AuthService, newAccountDefaults } from '../auth/auth.service.ts';
import { createEmailTakenError } from '../users/users.errors.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { UserRow } from '../users/users.table.ts';
import { createWorkspaceNotFoundError } from '../workspaces/workspaces.errors.ts';
import {
  createEmailHasAccountError,
  createInviteMailFailedError,
  createInviteNotFoundError,
} from './invites.errors.ts';
import type { InvitesRepository } from './invites.repository.ts';
import {
  type InviteBody,
  type InvitePayload,
  type InvitePreview,
  type InviteRegisterBody,
  toInvitePayload,
} from './invites.schemas.ts';

export const INVITE_TTL_DAYS = 7;

interface InvitesServiceDeps {
  db: Database;
  invites: InvitesRepository;
  users: UsersRepository;
  /** Registration through an invite issues its token exactly as POST /register does. */
  auth: Pick<AuthService, 'startSession' | 'tokenResponse'>;
  mailer: Mailer;
  logger: Logger;
  /** APP_URL: the registration link is `${appUrl}/app/register/${token}`, the dashboard's page. */
  appUrl: string;
}

interface InviteMailInput {
  workspaceName: string;
  inviterName: string;
  link: string;
  expiresAt: Date;
}

/** `2026-11-28 09:46 UTC` */
const formatUtc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The invitation: plain text and a simple HTML part; every value in the HTML is escaped. */
export function inviteMail(to: string, input: InviteMailInput): MailMessage {
  const { workspaceName, inviterName, link } = input;
  const expires = formatUtc(input.expiresAt);
  // A header holds one line, whatever the workspace name holds.
  const subject = `You are invited to join ${workspaceName.replace(/\s+/g, ' ')}`;
  const text = [
    'Hello,',
    '',
    `${inviterName} has invited you to join the workspace "${workspaceName}" on Location Finder.`,
    '',
    'Create your account with this link:',
    link,
    '',
    `The link is valid for ${INVITE_TTL_DAYS} days, until ${expires}.`,
    'If you were not expecting this invitation, you can ignore this email.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    '<p>Hello,</p>',
    `<p>${escapeHtml(inviterName)} has invited you to join the workspace <strong>${escapeHtml(workspaceName)}</strong> on Location Finder.</p>`,
    `<p><a href="${escapeHtml(link)}">Create your account</a></p>`,
    `<p>Or open this link in your browser:<br>${escapeHtml(link)}</p>`,
    `<p>The link is valid for ${INVITE_TTL_DAYS} days, until ${escapeHtml(expires)}.<br>`,
    'If you were not expecting this invitation, you can ignore this email.</p>',
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}

export function createInvitesService(deps: InvitesServiceDeps) {
  const { db, invites, users, auth, mailer, logger, appUrl } = deps;

  return {
    /**
     * Creates the invite, then mails it. The row is committed before the mail leaves (the link
     * must work when it arrives); a failed send removes it again (502). Earlier invites of the
     * same email to the same workspace die only once the new mail is out, so a failed resend
     * leaves the previous link working.
     */
    async send(inviter: UserRow, body: InviteBody, now = new Date()): Promise<InvitePayload> {
      const workspace = await invites.findWorkspace(body.workspace_id);
      if (!workspace) throw createWorkspaceNotFoundError();
      if (await users.findActiveByEmail(body.email)) throw createEmailHasAccountError();

      const token = randomToken();
      const invite = await invites
        .insert({
          email: body.email,
          workspaceId: workspace.id,
          invitedBy: inviter.id,
          tokenHash: sha256Hex(token),
          expiresAt: new Date(now.getTime() + INVITE_TTL_DAYS * 24 * 3600 * 1000),
        })
        .catch((error: unknown) => {
          // The workspace was deleted since it was read.
          if (pgErrorCode(error) === '23503') throw createWorkspaceNotFoundError();
          throw error;
        });

      const mail = inviteMail(invite.email, {
        workspaceName: workspace.name,
        inviterName: inviter.name,
        link: `${appUrl}/app/register/${token}`,
        expiresAt: invite.expiresAt,
      });
      try {
        await mailer.send(mail);
      } catch (error) {
        logger.warn({ err: error, inviteId: invite.id }, 'invite mail could not be sent');
        // Nobody knows this token; a row left behind by a failed delete expires unused.
        await invites
          .deleteById(invite.id)
          .catch((deleteError: unknown) =>
            logger.error({ err: deleteError, inviteId: invite.id }, 'unsent invite could not be removed'),
          );
        throw createInviteMailFailedError();
      }

      await invites.deleteOlder(invite);
      return toInvitePayload(invite);
    },

    /** GET /register/{token}: what the registration form shows. */
    async preview(token: string, now = new Date()): Promise<InvitePreview> {
      const invite = await invites.findLive(sha256Hex(token), now);
      if (!invite) throw createInviteNotFoundError();
      return { email: invite.email, workspace_name: invite.workspaceName };
    },

    /**
     * POST /register/{token}: one transaction creates the user with the invite's email (the
     * account of open registration, without a workspace of its own), adds them to the invite's
     * workspace as a member, deletes the invite and starts the session. The invite row is
     * locked first, so a token registers one account at most.
     */
    async register(
      token: string,
      body: InviteRegisterBody,
      client: ClientInfo,
      now = new Date(),
    ): Promise<TokenResponse> {
      const passwordHash = await hashPassword(body.password);
      // Another registration taking the email between the check and the insert violates the
      // unique index, which the error handler answers with the same 422.
      return db.transaction(async (tx) => {
        const invite = await invites.findLive(sha256Hex(token), now, { lock: true }, tx);
        if (!invite) throw createInviteNotFoundError();
        if (await users.findActiveByEmail(invite.email, tx)) throw createEmailTakenError();
        const user = await users.insert(
          {
            name: body.name,
            email: invite.email,
            passwordHash,
            ...newAccountDefaults(now),
          },
          tx,
        );
        await invites.addMember(invite.workspaceId, user.id, tx);
        await invites.deleteById(invite.id, tx);
        return auth.tokenResponse(await auth.startSession(user, client, tx), user);
      });
    },
  };
}

export type InvitesService = ReturnType<typeof createInvitesService>;
