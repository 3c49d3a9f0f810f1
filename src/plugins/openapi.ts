// The OpenAPI document as a client generator needs it, applied once to every route (like the
// error responses of error-handler.ts) instead of by each route file:
// - every operation has a unique, stable operationId: the route's own `schema.operationId`,
//   else one derived from method and path (`GET /api/sets/{id}` -> `getSet`, see operationIdOf);
// - a route that declares no `security` is public and says so (`security: []`);
// - the error responses shared by every route say what each status means.
// openApiTransform is @fastify/swagger's transform: zod -> JSON Schema, and Fastify's wildcard
// (`/cdn/*`) as a named path parameter (`/cdn/{path}`), which OpenAPI requires.
// openApiTransformObject adds the named schemas (src/openapi.components.ts) as components, keeping
// only those the document refers to.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../lib/schemas.ts';

/** What each shared error status means, as its response description. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (e.g. a body that is not JSON)',
  401: 'Missing, invalid, expired or revoked bearer token',
  403: 'Not allowed: role, subscription tier, plan limit, or a widget origin not in authorized_urls',
  404: 'Not found, or not visible to the caller',
  409: 'Conflict with the current state',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Validation failed; `errors` names each field',
  429: 'Too many requests; retry after the Retry-After header',
  500: 'Server error',
  502: 'An upstream provider failed',
  503: 'Not configured, or temporarily unavailable',
};

const describedErrors = new Map(
  Object.entries(ERROR_DESCRIPTIONS).map(([status, text]) => [
    Number(status),
    errorResponseSchema.describe(text),
  ]),
);

/** `processes` -> `process`, `categories` -> `category`, `details` -> `detail`. */
export function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('ss') || !word.endsWith('s')) return word;
  return word.slice(0, -1);
}

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

const isParam = (segment: string | undefined) =>
  segment !== undefined && (segment.startsWith(':') || segment === '*');

/**
 * The derived operationId: a verb, then the path's static segments after `/api`; a plural
 * followed by a parameter names one member and is put in the singular (`/sets/{id}` -> `Set`),
 * any other word followed by one keeps it (`/register/{token}` -> `RegisterByToken`).
 * - GET: `list` when the 200 answer is an array (`GET /api/sets` -> `listSets`), else `get`
 *   (`GET /api/sets/{id}` -> `getSet`, `GET /api/me` -> `getMe`).
 * - POST: `create` with the last word singular when it answers 201 on a plural collection
 *   (`POST /api/sets` -> `createSet`); else `post` (`POST /api/login` -> `postLogin`).
 * - PUT and PATCH: `update`; DELETE: `delete` (`DELETE /api/me/sessions/{id}` -> `deleteMeSession`).
 * Only the method and path decide, so an id changes only when its route does.
 */
export function operationIdOf(method: string, url: string, response: Record<string, unknown> = {}): string {
  const segments = url.split('/').filter(Boolean);
  if (segments[0] === 'api') segments.shift();
  const words = segments.flatMap((segment, index) => {
    const next = segments[index + 1];
    if (isParam(segment)) return [];
    if (!isParam(next)) return [segment];
    // A plural names a collection and the parameter one member; any other word keeps it.
    const member = singular(segment);
    return member !== segment ? [member] : [segment, 'by', next === '*' ? 'path' : next!.slice(1)];
  });
  const endsWithParam = isParam(segments.at(-1));
  let verb = method.toLowerCase();
  if (method === 'GET') verb = !endsWithParam && response[200] instanceof z.ZodArray ? 'list' : 'get';
  if (method === 'PUT' || method === 'PATCH') verb = 'update';
  if (method === 'POST' && !endsWithParam && response[201] !== undefined && words.at(-1)?.endsWith('s')) {
    verb = 'create';
    words.push(singular(words.pop()!));
  }
  return verb + (words.length > 0 ? words.map(pascal).join('') : 'Root');
}

/**
 * Declares operationIds, public security and error descriptions for every route registered
 * after it. Duplicate operationIds stop the app at start: give one of the routes its own
 * `schema.operationId`.
 */
export function declareOperations(app: FastifyInstance) {
  const taken = new Map<string, string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    // HEAD twins of GET routes are not in the document; neither are hidden routes.
    if (route.method === 'HEAD' || !route.schema || route.schema.hide) return;
    const method = Array.isArray(route.method) ? route.method[0]! : route.method;
    const response = { ...(route.schema.response as Record<string, unknown> | undefined) };
    for (const [status, schema] of describedErrors) {
      if (response[status] === errorResponseSchema) response[status] = schema;
    }
    const operationId = route.schema.operationId ?? operationIdOf(method, route.url, response);
    const where = `${method} ${route.url}`;
    const holder = taken.get(operationId);
    if (holder !== undefined) {
      throw new Error(
        `operationId "${operationId}" of ${where} is already used by ${holder}; set schema.operationId`,
      );
    }
    taken.set(operationId, where);
    // A fresh object: schemas shared between routes keep no id of another route.
    route.schema = { ...route.schema, operationId, security: route.schema.security ?? [], response };
  });
}

/**
 * The zod -> JSON Schema settings of both transforms. fastify-type-provider-zod's own override
 * removes the members of an `anyOf` that are still empty when it runs; converting the named
 * schemas together, zod has not filled some of them yet, and a union such as a location's
 * `email` (an address, null, or '') came out as `anyOf: []`. Without it zod writes every member.
 * The rest of that override concerns z.date() and z.undefined(), which no route schema uses.
 */
const zodToJsonConfig = { override: () => {} };
const zodTransform = createJsonSchemaTransform({ zodToJsonConfig });
const zodTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig });

/** zod -> JSON Schema, then a wildcard path `/x/*` named `/x/{path}` with its parameter. */
export const openApiTransform: typeof zodTransform = (document) => {
  const transformed = zodTransform(document);
  if (!transformed.url.endsWith('*')) return transformed;
  const schema = { ...(transformed.schema as Record<string, unknown>) };
  const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  if (params?.properties?.['*']) {
    const { '*': wildcard, ...others } = params.properties;
    schema.params = {
      ...params,
      properties: {
        ...others,
        path: { ...(wildcard as object), description: 'The rest of the path; may contain slashes' },
      },
      required: [...(params.required ?? []).filter((name) => name !== '*'), 'path'],
    };
  }
  return { schema: schema as typeof transformed.schema, url: `${transformed.url.slice(0, -1)}:path` };
};

/**
 * A route's own transform (`config.swaggerTransform`) for an upload its handler reads part by
 * part (request.parts()): Fastify is given no body schema, which it would validate, so the
 * form's fields are declared to the document alone, under the route's `consumes`.
 */
export function documentMultipartForm(form: z.ZodType): typeof openApiTransform {
  return (document) => {
    const transformed = openApiTransform(document);
    const { body } = zodTransform({ ...document, schema: { body: form } }).schema as { body?: unknown };
    return { ...transformed, schema: { ...(transformed.schema as object), body } };
  };
}

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/** Names of the component schemas `value` refers to (`$ref`s anywhere inside it). */
function referencedSchemas(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemas(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const match = key === '$ref' && typeof item === 'string' ? COMPONENT_REF.exec(item) : null;
      if (match) found.add(match[1]!);
      else referencedSchemas(item, found);
    }
  }
  return found;
}

/** Names of the shared error responses (`#/components/responses/<name>`), after their codes. */
const ERROR_RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'ValidationFailed',
  429: 'RateLimited',
  500: 'ServerError',
  502: 'ProviderUnavailable',
  503: 'ServiceUnavailable',
};

/** A shared error response as @fastify/swagger writes it into each operation. */
const sharedErrorResponse = (status: number) => ({
  description: ERROR_DESCRIPTIONS[status],
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

type Operations = Record<string, Record<string, { responses?: Record<string, unknown> }>>;

/**
 * Each operation's shared error responses (declareErrorResponses) as `$ref`s to one
 * `components.responses` entry per status, instead of a copy in every operation; a route's own
 * description of an error status stays where it is.
 */
function shareErrorResponses(paths: Operations): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const name = ERROR_RESPONSE_NAMES[Number(status)];
      const expected = sharedErrorResponse(Number(status));
      if (!name || JSON.stringify(response) !== JSON.stringify(expected)) continue;
      shared[name] = expected;
      operation.responses![status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return shared;
}

/**
 * Every registered schema as a component, in its request and its response form; the shared
 * error responses as components too; then only the schemas the document reaches, directly or
 * through another component: most schemas are used on one side only.
 */
export const openApiTransformObject: typeof zodTransformObject = (document) => {
  const object = zodTransformObject(document) as {
    paths?: Operations;
    components?: { schemas?: Record<string, unknown>; responses?: Record<string, unknown> };
  };
  const schemas = object.components?.schemas ?? {};
  const responses = { ...object.components?.responses, ...shareErrorResponses(object.paths ?? {}) };
  const kept = new Set<string>();
  let pending = [...referencedSchemas([object.paths, responses], new Set())];
  while (pending.length > 0) {
    const fresh = pending.filter((name) => !kept.has(name) && Object.hasOwn(schemas, name));
    for (const name of fresh) kept.add(name);
    pending = fresh.flatMap((name) => [...referencedSchemas(schemas[name], new Set())]);
  }
  const used = Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
  return {
    ...object,
    components: { ...object.components, schemas: used, responses },
  } as ReturnType<typeof zodTransformObject>;
};
