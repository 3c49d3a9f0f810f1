// API entry (Procfile `web`): serves the API; migrations are the `release` process's job.
import { run } from './run.ts';

await run({ migrate: false, api: true, worker: false });
