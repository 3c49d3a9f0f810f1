// npm run demo: the service as `npm start` runs it (embedded PostgreSQL without DATABASE_URL,
// migrations, API and worker), plus a demo account with a workspace of 300 coffee shops, tags,
// sets and custom fields, and a published finder, written through the service's own routes.
// Prints the URL of /demo/{token}, a page that embeds the widget as a customer's site would.
// Running it again reuses the account and its finder and publishes afresh; after a run cut
// short, before the finder existed, it clears the workspace and seeds it again.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config/config.ts';
import { demoFinderContent } from './demo-content.ts';
import { type ApiCall, ApiCallError, injectApi, publishFinder, seedFinder } from './seed-finder.ts';

export const DEMO_EMAIL = 'demo@northwind.example';
export const DEMO_PASSWORD = 'northwind-demo-2026';

/** Signs the demo account in, registering it the first time. */
async function demoToken(app: FastifyInstance): Promise<string> {
  const api = injectApi(app);
  try {
    return (await api<{ token: string }>('POST', '/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD }))
      .token;
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.answer.status !== 401) throw error;
  }
  const registered = await api<{ token: string }>('POST', '/register', {
    name: 'Northwind Demo',
    email: DEMO_EMAIL,
    password: DEMO_PASSWORD,
    password_confirmation: DEMO_PASSWORD,
  });
  return registered.token;
}

/**
 * Removes what a run cut short (Ctrl-C while seeding) left in the demo workspace before its
 * finder existed, so seeding again does not meet its own custom fields, sets and locations.
 */
async function clearWorkspace(api: ApiCall, workspaceId: number): Promise<void> {
  for (const resource of ['locations', 'sets', 'tags', 'custom-field-definitions']) {
    const rows = await api<{ id: number }[]>('GET', `/${resource}?workspace_id=${workspaceId}`);
    for (const row of rows) await api('DELETE', `/${resource}/${row.id}`);
  }
}

export async function seedDemo(app: FastifyInstance, config: Config): Promise<string> {
  const token = await demoToken(app);
  const api = injectApi(app, token);
  const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
  if (!workspace) throw new Error('the demo account has no workspace');
  const content = demoFinderContent();
  const finders = await api<{ name: string; token: string }[]>(
    'GET',
    `/finders?workspace_id=${workspace.id}`,
  );
  let finderToken = finders.find((finder) => finder.name === content.name)?.token;
  if (finderToken === undefined) {
    await clearWorkspace(api, workspace.id);
    finderToken = (await seedFinder(api, workspace.id, content)).token;
  }
  await publishFinder(api, finderToken);
  return `${config.appUrl}/demo/${finderToken}`;
}
