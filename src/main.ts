// `npm start`: the embedded defaults (PostgreSQL under .data/ when there is no DATABASE_URL;
// README.md, Configuration), migrations, then the API and the worker in one process. The widget
// and the dashboard are built first when a build is missing or older than its sources.
import { ensureDashboardBuilt } from '../scripts/build-dashboard.ts';
import { ensureWidgetBuilt } from '../scripts/build-widget.ts';
import { run } from './run.ts';

await ensureWidgetBuilt();
await ensureDashboardBuilt();

await run({ migrate: true, api: true, worker: true });
