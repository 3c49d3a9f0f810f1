// A worker killed in the middle of a generate job (a real src/worker.ts child, SIGKILL while
// the model call is in flight) and another started: the process is not left running. The new
// worker's supervisor sees the dead heartbeat, fails the pg-boss job so pg-boss retries it, and
// the retry drafts the batch. A worker stopped gracefully (SIGTERM) hands its job back at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wireLocation } from './factories/ai-answers.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { firstWorkspaceId } from './factories/workspaces.ts';
import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { type Child, startChild } from './helpers/children.ts';

let ctx: TestContext;
let fake: FakeOpenAi;
let env: Record<string, string>;
const workers: Child[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAi();
  env = { OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'gpt-crash' };
  ctx = await createTestContext({ env });
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await ctx?.close();
  await fake?.close();
});

const answers = {
  business_type: 'Bakeries',
  approximate_location_count: '1',
  geographic_scope: 'Leeds',
  customer_description: 'Locals',
  source_notes: 'Crumbs, 1 Bread Street, Leeds LS1 1AA',
};
const crumbs = wireLocation({
  name: 'Crumbs',
  address: '1 Bread Street',
  city: 'Leeds',
  zip: 'LS1 1AA',
  country: 'United Kingdom',
});

describe('a worker that dies mid-job', () => {
  it('leaves a process that is retried and finishes, never one stuck running', async () => {
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    fake.setBehaviour({ kind: 'slow', delayMs: 120_000, answer: { kind: 'locations', locations: [] } });
    const first = startChild('src/worker.ts', ctx.database.url, env);
    workers.push(first);
    await first.waitForOutput('worker started');

    const started = await ctx.app.inject({
      method: 'POST',
      url: '/api/ai-location-imports',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        workspace_id: await firstWorkspaceId(ctx.deps, user),
        answers,
      },
    });
    expect(started.statusCode).toBe(200);
    const processId: number = started.json().process.id;
    const status = async () => (await ctx.deps.services.processes.get(user.id, processId)).status;
    const deadline = Date.now() + 15_000;
    while (fake.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await status()).toBe('running');

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    // The dead worker's model call went with it.
    await fake.waitForClientClose(5_000);
    expect(await status()).toBe('running');

    fake.setBehaviour({ kind: 'locations', locations: [crumbs] });
    const second = startChild('src/worker.ts', ctx.database.url, env);
    workers.push(second);
    await second.waitForOutput('worker started');

    const seen = new Set<string>();
    const end = Date.now() + 50_000;
    let current = await status();
    while (!['waiting_review', 'failed', 'completed'].includes(current) && Date.now() < end) {
      seen.add(current);
      await new Promise((resolve) => setTimeout(resolve, 200));
      current = await status();
    }
    expect(current).toBe('waiting_review');
    const shown = await ctx.deps.services.processes.get(user.id, processId);
    expect(shown.metadata.attempts).toBe(2);
    const events = await ctx.deps.services.processes.events(user.id, processId);
    expect(events.map((event) => event.status)).toEqual([
      'pending',
      'running',
      'running',
      'pending',
      'running',
      'running',
      'waiting_review',
    ]);
    expect(events[3]).toMatchObject({
      type: 'error',
      message: 'The worker running this process stopped; the job will be retried.',
    });
    expect(second.output()).toContain('recovered a process left running by a dead worker');
  }, 90_000);

  it('a worker stopped with SIGTERM hands its running job back for a retry, without waiting for the model', async () => {
    // Only this test's workers may take the job.
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    fake.setBehaviour({ kind: 'slow', delayMs: 120_000, answer: { kind: 'locations', locations: [] } });
    const requestsBefore = fake.requests.length;
    const first = startChild('src/worker.ts', ctx.database.url, env);
    workers.push(first);
    await first.waitForOutput('worker started');
    const started = await ctx.app.inject({
      method: 'POST',
      url: '/api/ai-location-imports',
      headers: { authorization: `Bearer ${token}` },
      payload: { workspace_id: await firstWorkspaceId(ctx.deps, user), answers },
    });
    const processId: number = started.json().process.id;
    const deadline = Date.now() + 15_000;
    while (fake.requests.length === requestsBefore && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));

    const stoppedAt = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(8_000);
    const handedBack = await ctx.deps.services.processes.get(user.id, processId);
    expect(handedBack.status).toBe('pending');
    const events = await ctx.deps.services.processes.events(user.id, processId);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      status: 'pending',
      message: 'The worker stopped while drafting. The job will be retried (2 retries left).',
    });

    fake.setBehaviour({ kind: 'locations', locations: [crumbs] });
    const second = startChild('src/worker.ts', ctx.database.url, env);
    workers.push(second);
    const end = Date.now() + 40_000;
    let status = handedBack.status;
    while (status !== 'waiting_review' && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await ctx.deps.services.processes.get(user.id, processId)).status;
    }
    expect(status).toBe('waiting_review');
  }, 90_000);
});
