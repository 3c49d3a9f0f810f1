// widget.js compressed once, at build time, although the service writes its CDN_URL into the
// script when it serves it (src/widget/served.ts). The build compresses everything before the
// placeholder (the last few hundred bytes of the script: scripts/build-widget.ts keeps it
// there) at maximum effort and ends that part byte-aligned; the rest, the "tail", is stored
// as it is in the same stream. The service keeps the compressed head and appends its own tail,
// stored too: a few hundred bytes of framing, no compression per process or per request.
//
// Both formats allow it without any trick a decoder could reject:
// - gzip (RFC 1951/1952): the head is deflate data ended by a sync flush (an empty stored
//   block, byte-aligned); the tail follows as stored blocks (at most 65,535 bytes each, the
//   last one final), then the trailer: CRC-32 and length of the whole body.
// - br (RFC 7932): the head is a brotli stream ended by a flush (byte-aligned, not last); the
//   tail follows as uncompressed meta-blocks, then an empty last meta-block. Brotli has no
//   checksum.
// Nothing compressed follows the tail, so no back-reference can point into the bytes replaced.
import { brotliCompressSync, crc32, gzipSync, constants as zlibConstants } from 'node:zlib';
import { compressionOptions } from '../../lib/content-coding.ts';

export type PrecompressedCoding = 'gzip' | 'br';

/** The compressed head of `body[0, tailOffset)`: a stream not ended, byte-aligned. */
export function compressHead(head: Buffer, coding: PrecompressedCoding): Buffer {
  const options = compressionOptions('max', head.length);
  return coding === 'gzip'
    ? gzipSync(head, { ...options.gzip, finishFlush: zlibConstants.Z_SYNC_FLUSH })
    : brotliCompressSync(head, { ...options.br, finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH });
}

const MAX_STORED_BLOCK = 0xffff;

/** Deflate stored blocks holding `tail`, the last one final (RFC 1951 §3.2.4). */
function storedBlocks(tail: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  let offset = 0;
  do {
    const length = Math.min(MAX_STORED_BLOCK, tail.length - offset);
    const last = offset + length >= tail.length;
    const header = Buffer.alloc(5);
    header[0] = last ? 1 : 0; // BFINAL, BTYPE 00; the rest of the byte pads to the boundary
    header.writeUInt16LE(length, 1);
    header.writeUInt16LE(~length & 0xffff, 3);
    pieces.push(header, tail.subarray(offset, offset + length));
    offset += length;
  } while (offset < tail.length);
  return pieces;
}

/** The largest uncompressed brotli meta-block: MLEN - 1 fits in six nibbles. */
const MAX_META_BLOCK = 1 << 24;

/** Brotli uncompressed meta-blocks holding `tail`, then the empty last one (RFC 7932 §9.2). */
function uncompressedMetaBlocks(tail: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < tail.length; offset += MAX_META_BLOCK) {
    const length = Math.min(MAX_META_BLOCK, tail.length - offset);
    // The fewest nibbles that hold MLEN - 1 (more, with a last nibble of zero, are invalid).
    const nibbles = length - 1 < 1 << 16 ? 4 : length - 1 < 1 << 20 ? 5 : 6;
    // ISLAST 0 (1 bit), MNIBBLES - 4 (2 bits), MLEN - 1, ISUNCOMPRESSED 1, zero padding.
    const bits = BigInt(nibbles - 4) << 1n;
    const value = bits | (BigInt(length - 1) << 3n) | (1n << BigInt(3 + 4 * nibbles));
    const headerBytes = Math.ceil((4 + 4 * nibbles) / 8);
    const header = Buffer.alloc(headerBytes);
    for (let i = 0; i < headerBytes; i++) header[i] = Number((value >> BigInt(8 * i)) & 0xffn);
    pieces.push(header, tail.subarray(offset, offset + length));
  }
  // ISLAST 1, ISLASTEMPTY 1.
  pieces.push(Buffer.from([0b11]));
  return pieces;
}

/**
 * The complete compressed body: `head` (compressHead of `body`'s first bytes) with the rest of
 * `body`, from `tailOffset`, stored after it.
 */
export function withStoredTail(
  head: Buffer,
  coding: PrecompressedCoding,
  body: Buffer,
  tailOffset: number,
): Buffer {
  const tail = body.subarray(tailOffset);
  if (coding === 'br') return Buffer.concat([head, ...uncompressedMetaBlocks(tail)]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(body), 0);
  trailer.writeUInt32LE(body.length % 2 ** 32, 4);
  return Buffer.concat([head, ...storedBlocks(tail), trailer]);
}
