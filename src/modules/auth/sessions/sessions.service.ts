// The caller's own sessions (docs/api.md, "Account: sessions, PUT /me, DELETE /me"): list the live
// ones, revoke the others, revoke one. A live session is one a token may still use: not revoked and
// not expired. Only live sessions are listed, counted and revocable, so whatever GET /me/sessions
// shows can be revoked and nothing else can.

import { createNotFoundError } from '../../../lib/errors.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import { type SessionPayload, toSessionPayload } from './sessions.schemas.ts';
import type { AuthContext } from './sessions.table.ts';

export const createSessionNotFoundError = () => createNotFoundError('Session not found.');

export function createSessionsService({ sessions }: { sessions: SessionsRepository }) {
  return {
    async list({ user, session }: AuthContext, now = new Date()): Promise<SessionPayload[]> {
      const rows = await sessions.listLiveForUser(user.id, now);
      return rows.map((row) => toSessionPayload(row, session.id));
    },

    /** Signs out every other device; the token of the request keeps working. */
    async revokeOthers({ user, session }: AuthContext): Promise<{ revoked: number }> {
      return { revoked: await sessions.revokeAllForUser(user.id, new Date(), session.id) };
    },

    /**
     * Revokes one of the caller's live sessions, the current one included (then the token of this
     * very request answers 401 from the next request on). Another user's session answers 404
     * exactly as an unknown one (docs/api.md, "Account: sessions, PUT /me, DELETE /me").
     */
    async revoke({ user }: AuthContext, id: number): Promise<void> {
      if (!(await sessions.revokeLiveOfUser(id, user.id, new Date()))) throw createSessionNotFoundError();
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
