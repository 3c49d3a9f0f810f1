// The validator of every route: its zod schema, then one rule for every string that passed it.
// PostgreSQL cannot store a NUL character in text or jsonb (the query fails with 22021/22P05),
// nor an unpaired UTF-16 surrogate (`"\ud800"`) in jsonb (22P02; a text column silently gets
// U+FFFD instead), so either, anywhere in the parsed body, query string or path parameters, in a
// value or in an object key, is refused here as an ordinary validation failure naming the field:
// 422 (400 on the map routes, 404 for a path parameter), before any handler or query runs.
// Checking the parsed value rather than the raw input means only what reaches a service is
// judged, and no schema has to remember the rule. The walk (src/lib/json.ts) does not recurse,
// and the JSON body parser has already refused bodies nesting deeper than MAX_JSON_DEPTH.
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type StringProblem, unstorableStrings } from '../lib/json.ts';

const messages: Record<StringProblem, (field: string) => string> = {
  nul: (field) => `The ${field} field may not contain NUL characters.`,
  lone_surrogate: (field) => `The ${field} field may not contain unpaired UTF-16 surrogates.`,
};

const rejectUnstorable = (value: unknown, ctx: z.RefinementCtx) => {
  for (const { path, problem } of unstorableStrings(value)) {
    const field = path.length > 0 ? path.join('.') : 'body';
    ctx.addIssue({ code: 'custom', path, message: messages[problem](field) });
  }
};

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = (route) => {
  const schema =
    route.schema instanceof z.ZodType ? route.schema.superRefine(rejectUnstorable) : route.schema;
  return zodValidatorCompiler({ ...route, schema } as Parameters<typeof zodValidatorCompiler>[0]);
};
