// npm run demo: the service as `npm start` runs it (embedded PostgreSQL without DATABASE_URL,
// migrations, API and worker), then the demo account and its published finder
// (scripts/demo-seed.ts), the URL of /demo/{token} (a page that embeds the widget as a
// customer's site would) and of the dashboard, with the demo account to sign in with.
import { run } from '../src/run.ts';
import { ensureDashboardBuilt } from './build-dashboard.ts';
import { ensureWidgetBuilt } from './build-widget.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from './demo-seed.ts';

await ensureWidgetBuilt();
await ensureDashboardBuilt();
await run({
  migrate: true,
  api: true,
  worker: true,
  afterListen: async (app, config) => {
    const url = await seedDemo(app, config);
    const dashboard = `${config.appUrl}/app`;
    app.log.info(`demo ready: open ${url} and ${dashboard} (account ${DEMO_EMAIL})`);
    process.stdout.write(
      `\nDemo store locator: ${url}\nDashboard: ${dashboard}\n` +
        `Sign in as ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n\n`,
    );
  },
});
