// Graceful stop on SIGTERM/SIGINT: run the closer once, then exit; a second signal forces it,
// and so does the deadline, so a stuck close never outlives the platform's patience.
interface Log {
  info(message: string): void;
  error(object: unknown, message: string): void;
}

/**
 * Orchestrators send SIGKILL 30 s after SIGTERM (Kubernetes, Heroku); exiting on our own before
 * then leaves a log line that says why. The closers' own bounds add up to less (HTTP grace
 * 5 s, request work cut by it 3 s, job stop 10 s, database 5 s).
 */
export const SHUTDOWN_DEADLINE_MS = 25_000;

export function onShutdown(log: Log, close: () => Promise<void>, deadlineMs = SHUTDOWN_DEADLINE_MS): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    log.info(`${signal} received, shutting down`);
    setTimeout(() => {
      log.error({ deadlineMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, deadlineMs).unref();
    close()
      .then(() => process.exit(0))
      .catch((error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
