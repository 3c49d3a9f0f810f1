// Substring searches with LIKE and ILIKE: what a user types is matched as written.

/** A LIKE pattern matching `text` anywhere: `%`, `_` and `\` in it are literal characters, not wildcards. */
export const substringPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
