// The bitsets of a chunked finder's index (docs/api.md, Publishing: chunked finders): bit i of
// location i is bit i & 7 of byte i >> 3. Shared by the publish that writes and reads them and
// the widget that reads them.

/** Bit i of a bitset, 1 or 0 (0 past its end). */
export const hasBit = (bits: Uint8Array, i: number) => ((bits[i >> 3] ?? 0) >> (i & 7)) & 1;
