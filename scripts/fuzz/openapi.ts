// The part of an OpenAPI 3.1 document the fuzzer reads: every operation with its parameters,
// JSON body schema and security, and `$ref`s into the document resolved wherever they appear
// (schemas, parameters, request bodies), so named component schemas work as inline ones do.

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The template, `/api/sets/{id}`. */
  path: string;
  summary: string;
  parameters: Parameter[];
  /** The JSON body, when the operation documents one. */
  body?: { contentTypes: string[]; schema: JsonSchema; required: boolean };
  /** Whether the operation takes a bearer token (else it is public). */
  bearer: boolean;
  /** Answers text/event-stream: sent over a real connection that is cut once the status is known. */
  streams: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: unknown[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Follows `$ref: '#/...'` (a chain of them too); anything else is returned as is. */
export function deref<T>(document: OpenApiDocument, node: T): T {
  let current: unknown = node;
  for (let hops = 0; hops < 32; hops++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return current as T;
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      target = (target as Record<string, unknown> | undefined)?.[key];
    }
    if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
    current = target;
  }
  throw new Error('a $ref chain longer than 32 hops');
}

export function readOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = ((item as { parameters?: unknown[] }).parameters ?? []).map((p) => deref(document, p));
    for (const method of METHODS) {
      const raw = item[method] as Record<string, unknown> | undefined;
      if (!raw) continue;
      const own = ((raw.parameters as unknown[] | undefined) ?? []).map((p) => deref(document, p));
      const parameters = [...shared, ...own].map((p) => {
        const parameter = p as Partial<Parameter>;
        return {
          name: String(parameter.name),
          in: parameter.in ?? 'query',
          required: parameter.required === true || parameter.in === 'path',
          schema: parameter.schema ?? {},
        } satisfies Parameter;
      });
      const requestBody = deref(document, raw.requestBody) as
        | { required?: boolean; content?: Record<string, { schema?: JsonSchema }> }
        | undefined;
      const content = requestBody?.content ?? {};
      const jsonType = Object.keys(content).find((type) => type.includes('json'));
      const security = (raw.security as unknown[] | undefined) ?? document.security ?? [];
      const responses = Object.values((raw.responses as Record<string, unknown> | undefined) ?? {});
      operations.push({
        id: String(raw.operationId ?? `${method} ${path}`),
        method: method.toUpperCase() as Operation['method'],
        path,
        summary: String(raw.summary ?? ''),
        parameters,
        ...(jsonType
          ? {
              body: {
                contentTypes: Object.keys(content),
                schema: content[jsonType]!.schema ?? {},
                required: requestBody?.required === true,
              },
            }
          : {}),
        bearer: security.length > 0,
        streams: responses.some((response) =>
          Object.keys(
            (deref(document, response) as { content?: Record<string, unknown> }).content ?? {},
          ).includes('text/event-stream'),
        ),
      });
    }
  }
  return operations;
}
