// Housekeeping of the accounts tables, run by the worker every hour (src/jobs). Safe to run
// twice: it only deletes what has expired.
import type { SessionsRepository } from './sessions/sessions.repository.ts';
import type { TwoFactorRepository } from './two-factor/two-factor.repository.ts';

/** Expired or revoked sessions are kept this long so users can still see them listed. */
const SESSION_RETENTION_DAYS = 30;

interface MaintenanceDeps {
  sessions: SessionsRepository;
  codes: TwoFactorRepository;
  /** The invites module's (it sits above auth): deletes the invites past their expiry. */
  invites: { deleteExpired(now: Date): Promise<number> };
}

export function createMaintenanceJobs({ sessions, codes, invites }: MaintenanceDeps) {
  return {
    async purgeExpired(now = new Date()) {
      const cutoff = new Date(now.getTime() - SESSION_RETENTION_DAYS * 24 * 3600 * 1000);
      return {
        sessions: await sessions.deleteEndedBefore(cutoff),
        challenges: await codes.deleteExpiredChallenges(now),
        invites: await invites.deleteExpired(now),
      };
    },
  };
}

export type MaintenanceJobs = ReturnType<typeof createMaintenanceJobs>;
