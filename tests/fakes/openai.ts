// A real HTTP server (node:http, a free port of 127.0.0.1) speaking the OpenAI Chat Completions
// protocol, for tests of the `openai` drafting model: POST /v1/chat/completions (and
// /chat/completions, for a base URL given without /v1), bearer key checked, answers and errors
// in the real shapes. The code under test uses the real SDK; only OPENAI_BASE_URL differs.
// Requests are recorded; the behaviour is switched by the test (scripted locations, raw
// content, error statuses, a slow answer, an answer held until the test releases it) and applies
// until it is switched again. A slow answer notices a client that goes away, so tests can assert
// that a cancelled call really hung up.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: ChatRequestBody | undefined;
  /** Set when the client closed the connection before the answer was written. */
  clientClosed: boolean;
}

export interface ChatRequestBody {
  model?: string;
  messages?: { role: string; content: string }[];
  response_format?: {
    type: string;
    json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> };
  };
  stream?: boolean;
  [key: string]: unknown;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type FakeOpenAiBehaviour =
  /** A well-formed answer whose content is `{locations}` (in the wire shape the test gives). */
  | { kind: 'locations'; locations: unknown[]; usage?: FakeUsage | null }
  /** Any content (malformed JSON, a wrong shape), with a chosen finish_reason. */
  | { kind: 'content'; content: string; finishReason?: 'stop' | 'length' | 'content_filter' }
  /** A refusal: content null, `refusal` set, as the API answers when it declines. */
  | { kind: 'refusal'; refusal: string }
  /** A 200 whose JSON content type carries this body as is (a broken compatible server). */
  | { kind: 'body'; body: string }
  /** An error status in the API's error shape. */
  | { kind: 'error'; status: number; message?: string; type?: string; code?: string | null }
  /** The inner behaviour after a delay (a slow model); a client that leaves meanwhile is recorded. */
  | { kind: 'slow'; delayMs: number; answer: FakeOpenAiBehaviour }
  /** The inner behaviour once the test calls release(): a model busy for as long as the test looks. */
  | { kind: 'held'; answer: FakeOpenAiBehaviour };

export interface FakeOpenAi {
  /** `http://127.0.0.1:<port>/v1`, for OPENAI_BASE_URL. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>`, a base URL without /v1. */
  origin: string;
  apiKey: string;
  requests: RecordedChatRequest[];
  /** Applies to every following request until set again. Default: `{locations: []}`. */
  setBehaviour(behaviour: FakeOpenAiBehaviour): void;
  /** Answers the requests a `held` behaviour holds with its answer, which then applies at once. */
  release(): void;
  /** The first request (already closed or still to close) whose client hung up; rejects after the timeout. */
  waitForClientClose(timeoutMs?: number): Promise<RecordedChatRequest>;
  close(): Promise<void>;
}

const MESSAGES_BY_STATUS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: {
    message:
      'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  404: {
    message: 'The model does not exist or you do not have access to it.',
    type: 'invalid_request_error',
    code: 'model_not_found',
  },
  429: {
    message:
      'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
  503: {
    message: 'The engine is currently overloaded, please try again later.',
    type: 'server_error',
    code: null,
  },
};

const requestId = () => `req_${randomBytes(16).toString('hex')}`;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': requestId(),
    'openai-processing-ms': '12',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/** `{error: {message, type, param, code}}`, the body of every API error. */
function sendError(
  res: ServerResponse,
  status: number,
  error: { message?: string; type?: string; code?: string | null; param?: string | null } = {},
) {
  const defaults = MESSAGES_BY_STATUS[status] ?? MESSAGES_BY_STATUS[500]!;
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '20' } : {};
  sendJson(
    res,
    status,
    {
      error: {
        message: error.message ?? defaults.message,
        type: error.type ?? defaults.type,
        param: error.param ?? null,
        code: error.code === undefined ? defaults.code : error.code,
      },
    },
    headers,
  );
}

/**
 * What the real API refuses in a strict schema: an object without `additionalProperties: false`
 * or whose `required` does not list every property. Returns the first problem's path, or null.
 */
export function strictSchemaProblem(schema: unknown, path: string[] = []): string | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const node = schema as Record<string, unknown>;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object')) {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    if (node.additionalProperties !== false) {
      return `In context=(${path.join(', ')}), 'additionalProperties' is required to be supplied and to be false.`;
    }
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = Object.keys(properties).filter((key) => !required.includes(key));
    if (missing.length > 0) {
      return `In context=(${path.join(', ')}), 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`;
    }
    for (const [key, value] of Object.entries(properties)) {
      const problem = strictSchemaProblem(value, [...path, 'properties', key]);
      if (problem) return problem;
    }
  }
  if (node.items) {
    const problem = strictSchemaProblem(node.items, [...path, 'items']);
    if (problem) return problem;
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[keyword];
    if (Array.isArray(list)) {
      for (const [index, branch] of list.entries()) {
        const problem = strictSchemaProblem(branch, [...path, keyword, String(index)]);
        if (problem) return problem;
      }
    }
  }
  return null;
}

/** A rough token count (4 characters a token), for usage when the test scripts none. */
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function completion(
  body: ChatRequestBody,
  message: { content: string | null; refusal: string | null },
  finishReason: string,
  usage: FakeUsage | null | undefined,
) {
  const promptText = (body.messages ?? []).map((entry) => entry.content).join('\n');
  const prompt = tokens(promptText);
  const candidates = tokens(message.content ?? message.refusal ?? '');
  const reported =
    usage === null
      ? undefined
      : {
          ...(usage ?? {
            prompt_tokens: prompt,
            completion_tokens: candidates,
            total_tokens: prompt + candidates,
          }),
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        };
  return {
    id: `chatcmpl-${randomBytes(12).toString('base64url')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: message.content, refusal: message.refusal, annotations: [] },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    ...(reported ? { usage: reported } : {}),
    service_tier: 'default',
    system_fingerprint: 'fp_fake0001',
  };
}

export async function startFakeOpenAi(options: { apiKey?: string } = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? `sk-test-${randomBytes(8).toString('hex')}`;
  const requests: RecordedChatRequest[] = [];
  const closeListeners = new Set<(request: RecordedChatRequest) => void>();
  let behaviour: FakeOpenAiBehaviour = { kind: 'locations', locations: [] };
  let held: (() => void)[] = [];

  function respond(
    res: ServerResponse,
    body: ChatRequestBody,
    current: FakeOpenAiBehaviour,
    recorded: RecordedChatRequest,
  ) {
    switch (current.kind) {
      case 'slow': {
        const timer = setTimeout(() => respond(res, body, current.answer, recorded), current.delayMs);
        res.on('close', () => {
          if (res.writableFinished) return;
          clearTimeout(timer);
          recorded.clientClosed = true;
          for (const listener of closeListeners) listener(recorded);
        });
        return;
      }
      case 'held':
        held.push(() => respond(res, body, current.answer, recorded));
        return;
      case 'error':
        return sendError(res, current.status, current);
      case 'body':
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': requestId() });
        return void res.end(current.body);
      case 'refusal':
        return sendJson(
          res,
          200,
          completion(body, { content: null, refusal: current.refusal }, 'stop', undefined),
        );
      case 'content':
        return sendJson(
          res,
          200,
          completion(
            body,
            { content: current.content, refusal: null },
            current.finishReason ?? 'stop',
            undefined,
          ),
        );
      case 'locations':
        return sendJson(
          res,
          200,
          completion(
            body,
            { content: JSON.stringify({ locations: current.locations }), refusal: null },
            'stop',
            current.usage,
          ),
        );
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      let body: ChatRequestBody | undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
      } catch {
        body = undefined;
      }
      const recorded: RecordedChatRequest = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body,
        clientClosed: false,
      };
      requests.push(recorded);

      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
        return sendError(res, 404, { message: `Invalid URL (${req.method} ${path})`, code: null });
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) return sendError(res, 401);
      if (
        !body ||
        typeof body.model !== 'string' ||
        !Array.isArray(body.messages) ||
        body.messages.length === 0
      ) {
        return sendError(res, 400, {
          message: "Missing required parameter: 'model' or 'messages'.",
          param: 'messages',
        });
      }
      const format = body.response_format;
      if (format?.type === 'json_schema') {
        const schema = format.json_schema;
        const problem = !schema?.name
          ? "Missing required parameter: 'response_format.json_schema.name'."
          : schema.strict
            ? strictSchemaProblem(schema.schema)
            : null;
        if (problem) {
          return sendError(res, 400, {
            message: `Invalid schema for response_format '${schema?.name ?? ''}': ${problem}`,
            param: 'response_format',
            code: 'invalid_json_schema',
          });
        }
      }
      respond(res, body, behaviour, recorded);
    });
  });

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}/v1`,
    origin,
    apiKey,
    requests,
    setBehaviour(next) {
      behaviour = next;
    },
    release() {
      if (behaviour.kind === 'held') behaviour = behaviour.answer;
      const waiting = held;
      held = [];
      for (const answer of waiting) answer();
    },
    waitForClientClose(timeoutMs = 5000) {
      const found = requests.find((request) => request.clientClosed);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const listener = (request: RecordedChatRequest) => {
          clearTimeout(timer);
          closeListeners.delete(listener);
          resolve(request);
        };
        const timer = setTimeout(() => {
          closeListeners.delete(listener);
          reject(new Error(`no client closed its connection within ${timeoutMs} ms`));
        }, timeoutMs);
        closeListeners.add(listener);
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
