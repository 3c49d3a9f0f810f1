// src/lib/body-drain.ts on a bare Node HTTP server with small bounds: a refused body is read to
// its end and the connection serves the next request; a declared length past the bound, a body
// streaming past it and one too slow to arrive end the connection; a body already read needs
// nothing; a consumer that gave up (a multipart parser) is detached first.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DRAIN_FLOOR_BYTES,
  type DrainBounds,
  type DrainSettled,
  type DrainStart,
  drainBoundsFor,
  drainUnreadBody,
} from '../src/lib/body-drain.ts';
import { chunkFrame, openRaw, pump } from './helpers/raw-http.ts';

const ANSWER = '{"message":"The payload is too large.","code":"payload_too_large"}';

interface Probe {
  port: number;
  starts: DrainStart[];
  settled: DrainSettled[];
  /** Bytes a consumer attached before the refusal received. */
  piped: () => number;
}

let server: Server | undefined;

afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
  server = undefined;
});

/**
 * A server answering 413 to every POST once `before` bytes of its body were read (by a piped
 * consumer, as busboy reads) or once all of it was (`'end'`), then draining the rest; other
 * requests get 200.
 */
async function startProbe(bounds: DrainBounds, before: number | 'end' = 0): Promise<Probe> {
  const starts: DrainStart[] = [];
  const settled: DrainSettled[] = [];
  let piped = 0;
  const refuse = (request: IncomingMessage, response: import('node:http').ServerResponse) => {
    const start = drainUnreadBody(request, bounds, (result) => settled.push(result));
    starts.push(start);
    response.writeHead(413, {
      'content-type': 'application/json',
      ...(start === 'too-long' ? { connection: 'close' } : {}),
    });
    response.end(ANSWER);
  };
  server = createServer((request, response) => {
    if (request.method !== 'POST') return void response.end('ok');
    if (before === 0) return refuse(request, response);
    if (before === 'end') {
      request.on('end', () => refuse(request, response)).resume();
      return;
    }
    const consumer = new Writable({
      write(chunk: Buffer, _encoding, done) {
        piped += chunk.length;
        if (piped >= before && !response.headersSent) refuse(request, response);
        done();
      },
    });
    request.pipe(consumer);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, starts, settled, piped: () => piped };
}

describe('drainBoundsFor', () => {
  it('allows four times the route limit, never less than the floor', () => {
    expect(drainBoundsFor(1024 * 1024).maxBytes).toBe(DRAIN_FLOOR_BYTES);
    expect(drainBoundsFor(50 * 1024 * 1024).maxBytes).toBe(200 * 1024 * 1024);
    expect(DRAIN_FLOOR_BYTES).toBe(64 * 1024 * 1024);
  });
});

describe('drainUnreadBody', () => {
  it('reads a refused body to its end and keeps the connection for the next request', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 5_000 });
    const client = openRaw(probe.port);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 600000\r\n\r\n');
    await client.answers(1);
    expect(client.text()).toContain('HTTP/1.1 413');
    expect(client.text()).toContain(ANSWER);
    expect(client.text()).not.toMatch(/connection: close/i);
    await pump(client.socket, 600_000);
    client.socket.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.answers(2);
    expect(client.text()).toMatch(/HTTP\/1\.1 200 OK[\s\S]*ok$/);
    expect(probe.starts).toEqual(['draining']);
    expect(probe.settled).toEqual([{ outcome: 'drained', bytes: 600_000 }]);
    client.socket.destroy();
  });

  it('drains a chunked body that ends within the bound', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 5_000 });
    const client = openRaw(probe.port);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
    await pump(client.socket, 300_000, chunkFrame);
    client.socket.write('0\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.answers(2);
    expect(client.text()).toContain(ANSWER);
    expect(client.text()).toMatch(/HTTP\/1\.1 200 OK[\s\S]*ok$/);
    expect(probe.settled).toEqual([{ outcome: 'drained', bytes: 300_000 }]);
    client.socket.destroy();
  });

  it('reads nothing of a body declared past the bound: the answer says close and the server closes', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 5_000 });
    const client = openRaw(probe.port);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000001\r\n\r\n');
    await client.closed;
    expect(client.text()).toContain('HTTP/1.1 413');
    expect(client.text()).toMatch(/connection: close/i);
    expect(client.text()).toContain(ANSWER);
    expect(probe.starts).toEqual(['too-long']);
    expect(probe.settled).toEqual([]);
  });

  it('closes the connection once a body without a declared length passes the bound', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 5_000 });
    const client = openRaw(probe.port);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
    const sent = await pump(client.socket, 50_000_000, chunkFrame);
    await client.closed;
    expect(client.text()).toContain(ANSWER);
    expect(sent).toBeLessThan(50_000_000);
    const [settled] = probe.settled;
    expect(settled).toMatchObject({ outcome: 'cut', reason: 'bytes' });
    expect(settled?.bytes).toBeGreaterThan(1_000_000);
    // One read past the bound at most (a socket read is at most 64 KiB).
    expect(settled?.bytes).toBeLessThanOrEqual(1_000_000 + 64 * 1024);
  });

  it('closes the connection when the rest does not arrive in time', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 300 });
    const client = openRaw(probe.port);
    const started = Date.now();
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 500000\r\n\r\n');
    await pump(client.socket, 1000);
    await client.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(client.text()).toContain(ANSWER);
    expect(probe.settled).toEqual([{ outcome: 'cut', reason: 'time', bytes: 1000 }]);
  });

  it('detaches the consumer that gave up, and counts only what is read after the refusal', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 5_000 }, 100_000);
    const client = openRaw(probe.port);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 800000\r\n\r\n');
    await pump(client.socket, 800_000);
    client.socket.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.answers(2);
    const consumed = probe.piped();
    expect(consumed).toBeGreaterThanOrEqual(100_000);
    expect(consumed).toBeLessThan(800_000);
    expect(probe.settled).toEqual([{ outcome: 'drained', bytes: 800_000 - consumed }]);
    client.socket.destroy();
  });

  it('leaves a body that has arrived whole alone', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 5_000 }, 'end');
    const client = openRaw(probe.port);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789');
    await client.answers(1);
    expect(probe.starts).toEqual(['read']);
    client.socket.destroy();
  });

  it('settles as aborted when the client goes away mid-body', async () => {
    const probe = await startProbe({ maxBytes: 1_000_000, maxMs: 5_000 });
    const client = openRaw(probe.port);
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 500000\r\n\r\n');
    await pump(client.socket, 1000);
    await client.answers(1);
    client.socket.destroy();
    await expect.poll(() => probe.settled).toEqual([{ outcome: 'aborted', bytes: 1000 }]);
  });
});
