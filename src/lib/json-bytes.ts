// The characters of JSON's syntax as UTF-16 code units and bytes (the same below 0x80), for the
// code that walks JSON text without parsing it: the depth check of incoming bodies (json.ts)
// and the rewrite of the lists PostgreSQL writes (locations.json-walker.ts).
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const SPACE = 0x20;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const MINUS = 0x2d;
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
