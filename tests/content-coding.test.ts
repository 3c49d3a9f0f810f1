// src/lib/content-coding.ts (which coding an Accept-Encoding header picks) and
// src/modules/widget-assets/widget-assets.precompressed.ts (a compressed head with a stored tail, which the
// service appends to what the build compressed): standard decoders read the result.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, constants as zlibConstants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_CODINGS,
  type ContentCoding,
  chooseContentCoding,
  compressBody,
  compressionOptions,
  LARGE_BODY_BYTES,
} from '../src/lib/content-coding.ts';
import { compressHead, withStoredTail } from '../src/modules/widget-assets/widget-assets.precompressed.ts';
import { tempDir } from './helpers/temp.ts';

describe('chooseContentCoding', () => {
  it.each<[string | undefined, ContentCoding]>([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['br;q=0.5, gzip;q=1', 'gzip'],
    ['br;q=0.8, gzip;q=0.9', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    // Identity weighed above both: sent as it is.
    ['gzip;q=0.5, br;q=0.4, identity', 'identity'],
    ['gzip;q=0.5, identity;q=0.5', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*;q=0, gzip', 'gzip'],
    // Nothing acceptable, identity refused too: still identity (never a 406).
    ['*;q=0', 'identity'],
    ['identity;q=0, *;q=0', 'identity'],
    [' GZIP ; Q=0.7 , Br ; q=0.6', 'gzip'],
    ['gzip;q=abc, br;q=', 'identity'],
    ['gzip;level=1;q=0.3', 'gzip'],
    [',,gzip,,', 'gzip'],
  ])('%j -> %s', (header, coding) => {
    expect(chooseContentCoding(header, CONTENT_CODINGS)).toBe(coding);
  });

  it('picks only among the codings at hand', () => {
    expect(chooseContentCoding('br, gzip', ['gzip', 'identity'])).toBe('gzip');
    expect(chooseContentCoding('br', ['identity'])).toBe('identity');
    expect(chooseContentCoding('br;q=1, gzip;q=0.5', ['gzip', 'identity'])).toBe('gzip');
  });
});

describe('compression effort', () => {
  const quality = (effort: 'fast' | 'max', bytes: number) =>
    compressionOptions(effort, bytes).br.params?.[zlibConstants.BROTLI_PARAM_QUALITY];

  it('uses brotli 5 for a fast body, 4 past the large-body size, 11 for a build', () => {
    expect(quality('fast', 4_000_000)).toBe(5);
    expect(quality('fast', LARGE_BODY_BYTES)).toBe(5);
    expect(quality('fast', LARGE_BODY_BYTES + 1)).toBe(4);
    expect(quality('max', LARGE_BODY_BYTES + 1)).toBe(11);
  });

  it('gives forms that decode to the same bytes, on either side of the size', async () => {
    for (const size of [100_000, LARGE_BODY_BYTES + 1]) {
      const identity = Buffer.from('{"title":"Store"},'.repeat(Math.ceil(size / 18)).slice(0, size));
      const forms = await compressBody(identity, 'fast');
      expect(gunzipSync(forms.gzip).equals(identity)).toBe(true);
      expect(brotliDecompressSync(forms.br).equals(identity)).toBe(true);
    }
  });
});

describe('a compressed head with a stored tail', () => {
  const script = Buffer.from(
    `${'(()=>{let lookup=new Map;function find(store){return lookup.get(store)}'.repeat(2000)}var u="__LF_SERVED_CDN_URL__";start(u)})();\n/*! licence: ü, 漢字 */\n`,
  );
  const served = (url: string) =>
    Buffer.from(script.toString().replace('"__LF_SERVED_CDN_URL__"', JSON.stringify(url)));
  const tailOffset = script.indexOf('"__LF_SERVED_CDN_URL__"');

  it.each(['gzip', 'br'] as const)('decodes with %s to the body, whatever the tail', (coding) => {
    const head = compressHead(script.subarray(0, tailOffset), coding);
    const decode = coding === 'gzip' ? gunzipSync : brotliDecompressSync;
    // The build's own file, the service's longer and shorter tails, no tail, a tail over 64 KiB.
    const bodies = [
      script,
      served('https://cdn.shop.example/files/with/a/long/path'),
      served('/cdn'),
      script.subarray(0, tailOffset),
      Buffer.concat([script.subarray(0, tailOffset), Buffer.alloc(70_000, 'x')]),
    ];
    for (const body of bodies) {
      const compressed = withStoredTail(head, coding, body, tailOffset);
      expect(decode(compressed).equals(body)).toBe(true);
      // The head is reused as it is: only the tail's framing follows it.
      expect(compressed.subarray(0, head.length).equals(head)).toBe(true);
    }
    // Compressed: the head holds all but the tail.
    expect(withStoredTail(head, coding, script, tailOffset).length).toBeLessThan(script.length / 10);
  });

  it('is read by the system gzip, trailer checked', () => {
    const dir = tempDir('stored-tail-');
    const body = served('https://cdn.example');
    const file = path.join(dir, 'widget.js.gz');
    writeFileSync(
      file,
      withStoredTail(compressHead(script.subarray(0, tailOffset), 'gzip'), 'gzip', body, tailOffset),
    );
    // gzip -t checks the CRC and length of the trailer too.
    execFileSync('gzip', ['-t', file]);
    expect(execFileSync('gzip', ['-dc', file]).equals(body)).toBe(true);
  });
});
