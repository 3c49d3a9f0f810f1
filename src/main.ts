// `npm start`: the embedded defaults of decisions §1 (PostgreSQL under .data/ when there is no
// DATABASE_URL), migrations, then the API and the worker in one process.
import { run } from './run.ts';

await run({ migrate: true, api: true, worker: true });
