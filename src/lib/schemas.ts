// Zod schemas of fields that many modules share (ids, names, error bodies), and the OpenAPI
// security requirement of AUTH routes. No Fastify here: schemas files of every layer use it.
import type { Readable } from 'node:stream';
import { z } from 'zod';

const MAX_ID = 2_147_483_647;

/**
 * Canonical decimal only: `Number()` (and so z.coerce) also reads `1e0`, `0x1`, `1.0`, `+1`,
 * `01` and ` 1` as 1, which would give one resource many URLs.
 */
const CANONICAL_ID = /^[1-9][0-9]*$/;

/** The id a query text writes canonically, or why it writes none. */
function readQueryId(text: unknown): number | 'not an id' | 'too large' {
  if (typeof text !== 'string' || !CANONICAL_ID.test(text)) return 'not an id';
  const id = Number(text);
  return id > MAX_ID ? 'too large' : id;
}

/**
 * A PostgreSQL integer id written in a query string, a path or a multipart field, with the
 * parameter named in its messages. A path id that fails it answers 404 (error handler).
 * The text is read and checked by the transform; what it pipes into describes the result, and
 * that is what the OpenAPI document shows (zod writes a transform's input as the schema it
 * pipes into): an integer from 1 to 2147483647, so a generated client sends ids as numbers.
 */
export const queryIdSchema = (label: string) =>
  z
    .transform((text: unknown, ctx) => {
      const id = readQueryId(text);
      if (typeof id === 'number') return id;
      const message =
        id === 'too large' ? `The ${label} is too large.` : `The ${label} must be a positive integer.`;
      ctx.issues.push({ code: 'custom', message, input: text });
      return z.NEVER;
    })
    .pipe(z.int().min(1).max(MAX_ID));

/**
 * Ids in a query string, each read as queryIdSchema reads one: the parameter repeated
 * (`ids=1&ids=2`, OpenAPI's default form style, which generated clients send) or one value
 * separated by commas (`ids=1,2`, handier to type). At most `max` values, repeats included; an
 * id given twice is read once.
 */
export const queryIdListSchema = (field: string, max: number) =>
  z
    .transform((value: unknown, ctx) => {
      const parts = (Array.isArray(value) ? value : [value]).flatMap((part: unknown) =>
        typeof part === 'string' ? part.split(',') : [part],
      );
      if (parts.length > max) {
        ctx.issues.push({
          code: 'custom',
          message: `The ${field} may not have more than ${max} items.`,
          input: value,
        });
        return z.NEVER;
      }
      const ids = parts.map(readQueryId);
      if (!ids.every((id): id is number => typeof id === 'number')) {
        ctx.issues.push({
          code: 'custom',
          message: `The ${field} must be positive integers separated by commas.`,
          input: value,
        });
        return z.NEVER;
      }
      return [...new Set(ids)];
    })
    .pipe(z.array(z.int().min(1).max(MAX_ID)).min(1).max(max));

/** A PostgreSQL integer id from a path or query string. */
export const idSchema = queryIdSchema('id');

export const idParamsSchema = z.object({ id: idSchema });

/** OpenAPI security requirement of AUTH routes (the bearerAuth scheme declared in app.ts). */
export const bearerSecurity = [{ bearerAuth: [] }];

/** Bodies of error responses, for the OpenAPI document (docs/api.md, Errors). */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/** An integer id in a JSON body, with the field named in the message. */
export const bodyIdSchema = (field: string) =>
  z
    .number({ error: `The ${field} field is required.` })
    .int(`The ${field} must be an integer.`)
    .positive(`The ${field} must be a positive integer.`)
    .max(MAX_ID, `The ${field} is too large.`);

export { CONTROL_CHARACTER } from './control-characters.ts';

/** A name (of a user, workspace, set, tag): trimmed, 1-255 characters. */
export const nameSchema = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name may not be greater than 255 characters.');

/** A response body written as a stream of text (server-sent events): `string` in the OpenAPI document. */
export const textStreamSchema = z.custom<Readable | string>(() => true).meta({ type: 'string' });

/** A response body sent as raw bytes (a file, a script): `string`/`binary` in the OpenAPI document. */
export const binaryBodySchema = z
  .custom<Buffer | string>(() => true)
  .meta({ type: 'string', format: 'binary' });
