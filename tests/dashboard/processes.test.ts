import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let userId: number;
let workspaceId: number;

beforeAll(async () => {
  stage = await startDashboardStage();
  const user = await createUser(stage.ctx.deps);
  userId = user.id;
  token = await tokenFor(stage.ctx.deps, user);
  const res = await stage.ctx.app.inject({ method: 'GET', url: '/api/workspaces', headers: bearer(token) });
  workspaceId = res.json()[0].id;
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

/** A process written through the service, as the AI import's jobs write theirs. */
function newProcess(status: 'pending' | 'failed', forWorkspace = workspaceId, forUser = userId) {
  return stage.ctx.deps.services.processes.create(
    {
      workspaceId: forWorkspace,
      userId: forUser,
      type: 'ai_location_import_generate',
      status,
      progressPercent: status === 'failed' ? 40 : 0,
      currentStep: 'queued',
      queue: 'ai-imports.generate',
    },
    [{ type: 'status', status, progressPercent: 0, step: 'queued', message: `Marked ${status}.` }],
  );
}

const statusOf = async (id: number) =>
  (await stage.ctx.app.inject({ method: 'GET', url: `/api/processes/${id}`, headers: bearer(token) })).json()
    .status;

it('lists the workspace’s processes live, with their logs, retry and cancel', async () => {
  const form = `--b\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\n${workspaceId}\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="shops.csv"\r\nContent-Type: text/csv\r\n\r\ntitle,address\nCorner Coffee,Main St 1\n\r\n--b--\r\n`;
  const imported = await stage.ctx.app.inject({
    method: 'POST',
    url: '/api/locations/import',
    headers: { ...bearer(token), 'content-type': 'multipart/form-data; boundary=b' },
    payload: form,
  });
  expect(imported.statusCode).toBe(200);
  const failed = await newProcess('failed');
  const pending = await newProcess('pending');
  const other = await createUser(stage.ctx.deps);
  const otherWorkspace = (
    await stage.ctx.app.inject({
      method: 'GET',
      url: '/api/workspaces',
      headers: bearer(await tokenFor(stage.ctx.deps, other)),
    })
  ).json()[0].id;
  const foreign = await newProcess('pending', otherWorkspace, other.id);

  const opened = await stage.openSignedIn(token, `/app/processes?workspace=${workspaceId}`);
  const { page } = opened;
  const csvRow = page.getByRole('row', { name: /CSV import #\d+/ });
  await csvRow.getByText('Done').waitFor();
  expect(await page.getByRole('row', { name: `AI draft #${foreign}` }).count()).toBe(0);
  await expectAccessible(page, 'processes-list');

  await csvRow.getByRole('button', { name: 'Show the log' }).click();
  await page.getByRole('list', { name: 'Log' }).waitFor();
  await expectAccessible(page, 'processes-log');

  // Asked again while work is unfinished: a status changed elsewhere shows without a reload.
  const requests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/processes') requests.push(request.url());
  });
  await page
    .getByRole('row', { name: `AI draft #${pending}` })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await page
    .getByRole('row', { name: `AI draft #${pending}` })
    .getByText('Cancelled')
    .waitFor();
  expect(await statusOf(pending)).toBe('cancelled');

  await page
    .getByRole('row', { name: `AI draft #${failed}` })
    .getByRole('button', { name: 'Retry' })
    .click();
  await page
    .getByRole('row', { name: `AI draft #${failed}` })
    .getByText('Waiting', { exact: true })
    .waitFor();
  expect(await statusOf(failed)).toBe('pending');
  await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThan(1);
  expect(opened.problems).toEqual([]);
  await opened.close();
}, 60_000);
