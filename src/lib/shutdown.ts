// Graceful stop on SIGTERM/SIGINT: run the closer once, then exit; a second signal forces it.
interface Log {
  info(message: string): void;
  error(object: unknown, message: string): void;
}

export function onShutdown(log: Log, close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    log.info(`${signal} received, shutting down`);
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
