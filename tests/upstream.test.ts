// The one wrapper around calls to external services, against a real local HTTP server: JSON in
// and out, and each way a call can fail (timeout, refused connection, error status, non-JSON
// body, cancellation) as an UpstreamError whose message never carries the query string.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestJson, UpstreamError } from '../src/lib/upstream.ts';

let server: Server;
let base: string;
const seen: { method?: string; body?: string; headers?: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method, body, headers: req.headers });
      const path = new URL(req.url!, 'http://x').pathname;
      if (path === '/slow') return void setTimeout(() => res.end('{}'), 2_000);
      if (path === '/error') {
        res.writeHead(422, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: { code: 'bad_price' } }));
      }
      if (path === '/html') return void res.end('<html>');
      if (path === '/empty') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, echo: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('requestJson', () => {
  it('sends a JSON body and parses the JSON answer', async () => {
    const res = await requestJson<{ ok: boolean; echo: unknown }>(`${base}/ok`, {
      service: 'fake',
      method: 'POST',
      body: { a: 1 },
      headers: { authorization: 'Bearer k' },
      timeoutMs: 1_000,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, echo: { a: 1 } });
    const last = seen.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k' });
  });

  it('answers an empty body as undefined', async () => {
    const res = await requestJson(`${base}/empty`, { service: 'fake', timeoutMs: 1_000 });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
  });

  it('fails with timeout when no answer comes in time, without the query string', async () => {
    const started = Date.now();
    const error = await failure(requestJson(`${base}/slow?key=secret`, { service: 'fake', timeoutMs: 200 }));
    expect(error.failure).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error.message).not.toContain('secret');
  });

  it('fails with status and the parsed body on a non-2xx answer', async () => {
    const error = await failure(requestJson(`${base}/error`, { service: 'fake', timeoutMs: 1_000 }));
    expect(error).toMatchObject({ failure: 'status', status: 422, body: { error: { code: 'bad_price' } } });
  });

  it('fails with invalid_body when a 2xx answer is not JSON', async () => {
    const error = await failure(requestJson(`${base}/html`, { service: 'fake', timeoutMs: 1_000 }));
    expect(error.failure).toBe('invalid_body');
  });

  it('fails with network when nothing listens, without the query string', async () => {
    const error = await failure(
      requestJson('http://127.0.0.1:1/x?api_key=secret', { service: 'fake', timeoutMs: 1_000 }),
    );
    expect(error.failure).toBe('network');
    expect(error.message).not.toContain('secret');
  });

  it('fails with aborted when the caller cancels', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(
      requestJson(`${base}/slow`, { service: 'fake', timeoutMs: 5_000, signal: controller.signal }),
    );
    expect(error.failure).toBe('aborted');
  });
});
