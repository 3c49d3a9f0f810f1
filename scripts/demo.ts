// npm run demo: the service as `npm start` runs it (embedded PostgreSQL without DATABASE_URL,
// migrations, API and worker), then the demo account and its published finder
// (scripts/demo-seed.ts), and the URL of /demo/{token}: a page that embeds the widget as a
// customer's site would.
import { run } from '../src/run.ts';
import { ensureWidgetBuilt } from './build-widget.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from './demo-seed.ts';

await ensureWidgetBuilt();
await run({
  migrate: true,
  api: true,
  worker: true,
  afterListen: async (app, config) => {
    const url = await seedDemo(app, config);
    app.log.info(`demo ready: open ${url} (account ${DEMO_EMAIL}, password ${DEMO_PASSWORD})`);
    process.stdout.write(
      `\nDemo store locator: ${url}\nSign in to the API as ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n\n`,
    );
  },
});
