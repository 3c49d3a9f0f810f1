// Worker entry (Procfile `worker`): consumes the jobs of src/jobs/; stops gracefully on SIGTERM.
import { run } from './run.ts';

await run({ migrate: false, api: false, worker: true });
