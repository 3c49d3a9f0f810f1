// Which characters a name or a label may not hold, apart from zod (src/lib/schemas.ts uses it in
// schemas; rules that the widget and the dashboard bundle, such as src/lib/hours, read it here).

/** C0, DEL and C1: U+0000-U+001F, U+007F-U+009F. */
export const CONTROL_CHARACTER = /\p{Cc}/u;
