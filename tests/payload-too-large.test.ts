// Every client reads the 413 (docs/api.md, Frame: bodies): the service answers an oversized body
// at once, then reads and discards the rest within a bound before the connection is reused or
// closed. Through a listening app: Node's fetch (which reads an answer only once its upload is
// sent), curl, and raw sockets for the connection's fate and the bound. Chromium's side is in
// tests/widget/payload-too-large-browser.test.ts.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_FLOOR_BYTES } from '../src/lib/body-drain.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createOwnerWithLocation } from './factories/locations.ts';
import { bearer } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { chunkFrame, openRaw, pump } from './helpers/raw-http.ts';
import { tempDir } from './helpers/temp.ts';

const MB = 1024 * 1024;
const IMAGE_TOO_LARGE = { message: 'The image may not be larger than 5 MB.', code: 'payload_too_large' };
const TOO_LARGE = { message: 'The payload is too large.', code: 'payload_too_large' };

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

let ctx: TestContext;
let base: string;
let port: number;
let token: string;
let workspaceId: number;
let locationId: number;
let imageUrl: string;

beforeAll(async () => {
  ctx = await createTestContext({ logger: createLogger({ logLevel: 'debug' }, sink) });
  ({ token, workspaceId, locationId } = await createOwnerWithLocation(ctx));
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  imageUrl = `${base}/api/locations/${locationId}/image`;
});
afterAll(async () => {
  await ctx?.close();
});

function imageForm(bytes: number): FormData {
  const form = new FormData();
  form.append('image', new Blob([Buffer.alloc(bytes, 0xff)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

/** A body Node's fetch sends chunked (no Content-Length), `total` bytes in 256 KiB pieces. */
function streamed(head: string, total: number, tail = ''): ReadableStream<Uint8Array> {
  const piece = new Uint8Array(256 * 1024).fill(0x61);
  let sent = -1;
  return new ReadableStream({
    pull(controller) {
      if (sent < 0) {
        controller.enqueue(new TextEncoder().encode(head));
        sent = 0;
      } else if (sent < total) {
        controller.enqueue(piece.subarray(0, Math.min(piece.length, total - sent)));
        sent += piece.length;
      } else {
        controller.enqueue(new TextEncoder().encode(tail));
        controller.close();
      }
    },
  });
}

async function imageRow() {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/locations/${locationId}`,
    headers: bearer(token),
  });
  return res.json().image_url as string | null;
}

describe("Node's fetch reads the 413", () => {
  it('for images of 6 MB and 30 MB (declared length over the limit)', async () => {
    for (const size of [6 * MB, 30 * MB]) {
      const res = await fetch(imageUrl, { method: 'POST', headers: bearer(token), body: imageForm(size) });
      expect(res.status, String(size)).toBe(413);
      expect(await res.json(), String(size)).toEqual(IMAGE_TOO_LARGE);
    }
    expect(await imageRow()).toBeNull();
  });

  it('for a CSV over 50 MB and a JSON body over 1 MiB', async () => {
    const form = new FormData();
    form.append('workspace_id', String(workspaceId));
    form.append('file', new Blob([Buffer.alloc(51 * MB, 'a')], { type: 'text/csv' }), 'big.csv');
    const csv = await fetch(`${base}/api/locations/import`, {
      method: 'POST',
      headers: bearer(token),
      body: form,
    });
    expect(csv.status).toBe(413);
    expect(await csv.json()).toEqual(TOO_LARGE);

    const json = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2 * MB) }),
    });
    expect(json.status).toBe(413);
    expect(await json.json()).toEqual(TOO_LARGE);
  });

  it('for bodies without a declared length, refused once they pass the limit mid-stream', async () => {
    const boundary = 'b0undary';
    const image = await fetch(imageUrl, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: streamed(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        12 * MB,
        `\r\n--${boundary}--\r\n`,
      ),
      duplex: 'half',
    } as RequestInit);
    expect(image.status).toBe(413);
    expect(await image.json()).toEqual(IMAGE_TOO_LARGE);

    const json = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamed('{"email":"', 3 * MB, '"}'),
      duplex: 'half',
    } as RequestInit);
    expect(json.status).toBe(413);
    expect(await json.json()).toEqual(TOO_LARGE);
    expect(await imageRow()).toBeNull();
  });

  it('for other refusals of an unread upload too (no token: 401)', async () => {
    const res = await fetch(imageUrl, { method: 'POST', body: imageForm(30 * MB) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
  });
});

describe('curl reads the 413', () => {
  it('for a 30 MB image', async () => {
    const file = path.join(tempDir('too-large-'), 'photo.jpg');
    await writeFile(file, Buffer.alloc(30 * MB, 0xff));
    const { stdout } = await promisify(execFile)('curl', [
      '--silent',
      '--show-error',
      '--header',
      `Authorization: Bearer ${token}`,
      '--form',
      `image=@${file};type=image/jpeg`,
      '--write-out',
      '\n%{http_code}',
      imageUrl,
    ]);
    const [body, status] = stdout.split('\n');
    expect(status).toBe('413');
    expect(JSON.parse(body ?? '')).toEqual(IMAGE_TOO_LARGE);
  });
});

const uploadHead = (length: string) =>
  `POST /api/locations/${locationId}/image HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
  `Content-Type: multipart/form-data; boundary=b0undary\r\n${length}\r\n`;

describe('the connection after a 413', () => {
  it('answers before reading the body, reads the rest, then serves the next request on it', async () => {
    const client = openRaw(port);
    client.socket.write(uploadHead(`Content-Length: ${6 * MB}\r\n`));
    await client.answers(1);
    expect(client.text()).toMatch(/^HTTP\/1\.1 413 /);
    expect(client.text()).toContain(JSON.stringify(IMAGE_TOO_LARGE));
    expect(client.text()).not.toMatch(/connection: close/i);
    await pump(client.socket, 6 * MB);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.answers(2);
    expect(client.text()).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\{"status":"ok"\}$/);
    client.socket.destroy();
  });

  it('closes at once when the declared length is past the bound (64 MiB for the image route)', async () => {
    const client = openRaw(port);
    client.socket.write(uploadHead(`Content-Length: ${DRAIN_FLOOR_BYTES + 1}\r\n`));
    await client.closed;
    expect(client.text()).toMatch(/^HTTP\/1\.1 413 /);
    expect(client.text()).toMatch(/connection: close/i);
    expect(client.text()).toContain(JSON.stringify(IMAGE_TOO_LARGE));
  });

  it('closes once a body without a declared length passes the bound, having read no more', async () => {
    logLines.length = 0;
    const client = openRaw(port);
    client.socket.write(uploadHead('Transfer-Encoding: chunked\r\n'));
    client.socket.write(
      chunkFrame(
        Buffer.from(
          '--b0undary\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n' +
            'Content-Type: image/jpeg\r\n\r\n',
        ),
      ),
    );
    const sent = await pump(client.socket, 400 * MB, chunkFrame);
    await client.closed;
    expect(client.text()).toContain(JSON.stringify(IMAGE_TOO_LARGE));
    expect(sent).toBeLessThan(400 * MB);
    const line = logLines.map((text) => JSON.parse(text)).find((entry) => entry.outcome === 'cut');
    expect(line).toMatchObject({ outcome: 'cut', reason: 'bytes', level: 30 });
    expect(line.bytes).toBeGreaterThan(DRAIN_FLOOR_BYTES);
    // One socket read past the bound at most.
    expect(line.bytes).toBeLessThanOrEqual(DRAIN_FLOOR_BYTES + 64 * 1024);
  });

  it('reads the rest of a JSON body declared over the limit, within its bound', async () => {
    const client = openRaw(port);
    const declared = 3 * MB;
    client.socket.write(
      `POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    await client.answers(1);
    expect(client.text()).toContain(JSON.stringify(TOO_LARGE));
    expect(client.text()).not.toMatch(/connection: close/i);
    await pump(client.socket, declared);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.answers(2);
    expect(client.text()).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\{"status":"ok"\}$/);
    client.socket.destroy();
  });
});
