// What kind of image an upload is, judged by its first bytes only (docs/api.md, Storage and CDN): a
// name or a declared Content-Type says nothing about the bytes that will be served from the CDN.
export interface ImageType {
  ext: 'jpg' | 'png';
  contentType: 'image/jpeg' | 'image/png';
}

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const startsWith = (bytes: Buffer, magic: Buffer) =>
  bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic);

export function detectImageType(bytes: Buffer): ImageType | undefined {
  if (startsWith(bytes, JPEG_MAGIC)) return { ext: 'jpg', contentType: 'image/jpeg' };
  if (startsWith(bytes, PNG_MAGIC)) return { ext: 'png', contentType: 'image/png' };
  return undefined;
}
