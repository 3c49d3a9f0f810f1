// The validator of every route: its zod schema, then one rule for every string that passed it.
// PostgreSQL cannot store a NUL character in text or jsonb (the query fails with 22021/22P05),
// so a NUL anywhere in the parsed body, query string or path parameters, in a value or in an
// object key, is refused here as an ordinary validation failure naming the field: 422 (400 on
// the map routes, 404 for a path parameter), before any handler or query runs. Checking the
// parsed value rather than the raw input means only what reaches a service is judged, and no
// schema has to remember the rule.
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

const NUL = '\u0000';

/** Paths of the strings holding a NUL; a key with a NUL is reported on the object that holds it. */
function nulPaths(value: unknown, path: (string | number)[] = [], found: (string | number)[][] = []) {
  if (typeof value === 'string') {
    if (value.includes(NUL)) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      nulPaths(item, [...path, index], found);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) found.push(path);
      else nulPaths(item, [...path, key], found);
    }
  }
  return found;
}

const rejectNul = (value: unknown, ctx: z.RefinementCtx) => {
  for (const path of nulPaths(value)) {
    const field = path.length > 0 ? path.join('.') : 'body';
    ctx.addIssue({ code: 'custom', path, message: `The ${field} field may not contain NUL characters.` });
  }
};

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = (route) => {
  const schema = route.schema instanceof z.ZodType ? route.schema.superRefine(rejectNul) : route.schema;
  return zodValidatorCompiler({ ...route, schema } as Parameters<typeof zodValidatorCompiler>[0]);
};
