// Output of GET /me/sessions: one entry per live session of the caller (docs/api.md,
// "Account: sessions, PUT /me, DELETE /me").

import { z } from 'zod';
import type { SessionRow } from './sessions.table.ts';

export const sessionSchema = z.object({
  id: z.number().int(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
  /** True for the session of the token that made the request. */
  current: z.boolean(),
});
export type SessionPayload = z.infer<typeof sessionSchema>;

export const revokedCountSchema = z.object({ revoked: z.number().int() });

export function toSessionPayload(session: SessionRow, currentId: number): SessionPayload {
  return {
    id: session.id,
    ip: session.ip,
    user_agent: session.userAgent,
    created_at: session.createdAt.toISOString(),
    last_used_at: session.lastUsedAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    current: session.id === currentId,
  };
}
