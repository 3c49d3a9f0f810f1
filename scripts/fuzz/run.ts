// The fuzzer's loop: for every operation of /openapi.json, requests built from its schema, valid
// ones first (one round: every operation as anonymous, user and admin), then rounds of mutated
// ones (bodies mutated at any depth, whole bodies replaced by odd text or bytes, query strings,
// path parameters and headers), each sent through app.inject (a streaming operation over a real
// connection, cut once its status is known). It counts answers by status class and keeps the
// first request of each distinct 5xx (method, path template, status, code) with what the app
// logged for it. One seed gives one sequence of requests: every choice comes from Random.
import type { FastifyInstance } from 'fastify';
import { type Operation, readOperations } from './openapi.ts';
import { Random } from './random.ts';
import {
  deepText,
  encodeComponent,
  ODD_STRINGS,
  type Pool,
  SEGMENT_KINDS,
  toJsonText,
  Values,
} from './values.ts';
import { multipartBody, type PersonaName, type RestoreScope, type World } from './world.ts';

export type Mode = 'valid' | 'body' | 'raw' | 'query' | 'path' | 'headers';
export type Caller = 'anonymous' | PersonaName;
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

export interface FuzzRequest {
  operation: Operation;
  caller: Caller;
  mode: Mode;
  /** What was done to the request, for the report. */
  note: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress: string;
}

export interface Failure {
  method: string;
  path: string;
  status: number;
  code: string | undefined;
  count: number;
  /** The first request that got it (its number in the run, counted from 1). */
  index: number;
  request: FuzzRequest;
  response: string;
  /** What the app logged at error level while answering it. */
  log: string[];
}

export interface FuzzReport {
  seed: number;
  budget: number;
  requests: number;
  byClass: Record<StatusClass, number>;
  byStatus: Record<string, number>;
  byOperation: Record<string, Record<StatusClass, number>>;
  /** Milliseconds spent answering each operation, all requests together. */
  msByOperation: Record<string, number>;
  /** Milliseconds spent putting the fuzzer's people and resources back. */
  restoreMs: number;
  failures: Failure[];
  restores: number;
  durationMs: number;
}

export interface FuzzOptions {
  seed: number;
  budget: number;
  /** Called every `every` requests with the report so far. */
  onProgress?: (report: FuzzReport) => void;
  /** Called at the first request of each distinct 5xx. */
  onFailure?: (failure: Failure) => void;
  /**
   * Requests under way at once (default 1). Above 1 the requests are the same, but the order in
   * which they reach the app varies from run to run (they also race each other).
   */
  concurrency?: number;
  every?: number;
}

const MiB = 1024 * 1024;
const STREAM_TIMEOUT_MS = 5_000;
const RESTORE_EVERY = 250;

/** Paths whose successful writes may change the fuzzer's own people (role, plan, sessions, 2FA). */
const PEOPLE = /\/(me|users|logout|sessions|2fa)(\/|$)/;

/**
 * What the request may have taken away, so the next ones still reach authenticated code with
 * resources that exist: undefined when nothing. Everything every RESTORE_EVERY requests.
 */
function restoreScope(
  operation: Operation,
  caller: Caller,
  mode: Mode,
  status: number,
  requests: number,
): RestoreScope | undefined {
  if (requests % RESTORE_EVERY === 0) return { people: true, seeds: true, integrations: true };
  const changed = status < 300 && operation.method !== 'GET';
  const scope: RestoreScope = {
    people:
      (changed && PEOPLE.test(operation.path)) ||
      (status === 401 && caller !== 'anonymous' && mode !== 'headers'),
    seeds: changed && (operation.method === 'DELETE' || /\/(workspaces|users|me)(\/|$)/.test(operation.path)),
    integrations: changed && operation.path.includes('/integrations'),
  };
  return scope.people || scope.seeds || scope.integrations ? scope : undefined;
}

const ODD_PATH_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  'abc',
  '1e0',
  '01',
  '+1',
  '0x1',
  '%201',
  '%00',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%ff',
  '%',
  'x'.repeat(101),
  '..',
  '%2e%2e',
  '%2F',
  'null',
  '%5Bobject%20Object%5D',
  "1'OR'1'%3D'1",
];

const RAW_BODIES = [
  'null',
  '[]',
  '"x"',
  '1',
  'true',
  '{',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '\ufeff{}',
  '{"a":1} trailing',
  '/* c */ {}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"name":"a","name":"b"}',
  '{"a":"\\ud800"}',
  '{"\\udc00":1}',
  '{"a":"\\u0000"}',
  '{"a":1e999}',
];

const ODD_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  '*/*',
];

const FORGED_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwianRpIjoiZnV6eiIsImlzcyI6ImxvY2F0aW9uLWZpbmRlciJ9.c2lnbmF0dXJl';

export const statusClass = (status: number): StatusClass =>
  status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';

export class Fuzzer {
  private readonly random: Random;
  private readonly values: Values;
  private readonly operations: Operation[];
  /** What the request being built aims at: mostly the caller's own resources (see build). */
  private view: Pool;

  constructor(
    private readonly world: World,
    seed: number,
  ) {
    this.random = new Random(seed);
    this.view = world.pool;
    this.values = new Values(world.document, this.random, () => this.view);
    this.operations = readOperations(world.document);
  }

  get operationCount(): number {
    return this.operations.length;
  }

  get pool(): Pool {
    return this.view;
  }

  /**
   * The ids a person's request aims at: their own seeded resources most of the time (so valid
   * requests reach the code behind the access checks), everyone's otherwise (another person's
   * resource must answer 404).
   */
  private poolFor(caller: Caller): Pool {
    const shared = this.world.pool;
    if (caller === 'anonymous' || this.random.chance(0.2)) return shared;
    const persona = this.world.personas[caller];
    const ids = { ...shared.ids };
    for (const kind of Object.keys(ids) as (keyof Pool['ids'])[]) {
      const own = persona.seeds[kind] ?? [];
      if (own.length > 0) ids[kind] = own;
    }
    return { ...shared, ids, customFieldNames: persona.fieldNames };
  }

  /** The requests of the run, in order: a first round of valid ones, then mutated rounds. */
  *plan(): Generator<{ operation: Operation; caller: Caller; mode: Mode }> {
    for (const operation of this.operations) {
      for (const caller of ['anonymous', 'user', 'admin'] as const)
        yield { operation, caller, mode: 'valid' };
    }
    for (;;) {
      for (const operation of this.random.shuffle(this.operations)) {
        const caller = this.random.weighted<Caller>({ anonymous: 15, user: 45, admin: 40 });
        const mode = this.random.weighted<Mode>({
          valid: 20,
          body: 35,
          raw: 12,
          query: 11,
          path: 11,
          headers: 11,
        });
        yield { operation, caller, mode };
      }
    }
  }

  build(operation: Operation, caller: Caller, mode: Mode): FuzzRequest {
    this.view = this.poolFor(caller);
    const { random } = this;
    const notes: string[] = [];
    const headers: Record<string, string> = {};
    const token = caller === 'anonymous' ? undefined : this.world.personas[caller].token;
    if (token) headers.authorization = `Bearer ${token}`;

    // Path: parameters from the pool, or one odd segment.
    const oddParam =
      mode === 'path'
        ? random.pick(
            operation.parameters
              .filter((p) => p.in === 'path')
              .map((p) => p.name)
              .concat(['']),
          )
        : '';
    let url = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string, offset: number) => {
      if (name === oddParam) {
        const odd = random.pick(ODD_PATH_SEGMENTS);
        notes.push(`path ${name}=${odd.slice(0, 40)}`);
        return odd;
      }
      return this.pathValue(operation, name, operation.path.slice(0, offset));
    });

    // Query string.
    const query: string[] = [];
    for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
      if (!parameter.required && !random.chance(0.5)) continue;
      const value = this.values.sample(parameter.schema, parameter.name);
      for (const item of Array.isArray(value) ? value : [value]) {
        query.push(
          `${encodeURIComponent(parameter.name)}=${encodeComponent(typeof item === 'string' ? item : JSON.stringify(item))}`,
        );
      }
    }
    if (mode === 'query') {
      const names = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      const name =
        names.length > 0 && random.chance(0.8)
          ? random.pick(names)
          : random.pick(['x', 'workspace_id', 'q', '__proto__']);
      const kind = random.int(0, 4);
      const value =
        kind === 0
          ? encodeComponent(random.pick(ODD_STRINGS))
          : kind === 1
            ? random.pick([
                '%',
                '%zz',
                '%ff',
                '%00',
                '%C0%AE',
                '%E2%80%AE',
                '%ED%A0%80',
                '%ED%B0%80%ED%A0%80',
              ])
            : kind === 2
              ? encodeComponent(
                  random.pick(['-1', '0', '1.5', '1e3', '2147483648', '99999999999999999999', 'NaN', 'true']),
                )
              : kind === 3
                ? 'x'.repeat(random.pick([300, 5_000]))
                : `1&${encodeURIComponent(name)}=2&${encodeURIComponent(name)}=3`;
      const key = random.chance(0.1) ? `${encodeURIComponent(name)}[a]` : encodeURIComponent(name);
      query.push(`${key}=${value}`);
      notes.push(`query ${name}=${value.slice(0, 60)}`);
    }
    if (query.length > 0) url += `?${query.join('&')}`;

    const request: FuzzRequest = {
      operation,
      caller,
      mode,
      note: '',
      method: operation.method,
      url,
      headers,
      remoteAddress: random.chance(0.9)
        ? `10.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}`
        : '10.0.0.1',
    };
    this.body(request, mode, notes);
    if (mode === 'headers') this.oddHeaders(request, notes);
    request.note = notes.join('; ');
    return request;
  }

  /** A real value for a path parameter: the resource its segment names, else from its schema. */
  private pathValue(operation: Operation, name: string, before: string): string {
    const { random, pool } = this;
    const segment =
      before
        .split('/')
        .filter((part) => part && !part.startsWith('{'))
        .pop() ?? '';
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    const some = (items: string[]) => (items.length > 0 ? random.pick(items) : random.string(20));
    if (name === 'path') return some(pool.cdnPaths);
    if (name === 'transactionId') return some(pool.transactionIds);
    if (segment === 'register') return some(pool.inviteTokens);
    if (segment === 'token' || segment === 'details' || segment === 'demo') return some(pool.finderTokens);
    const kind = SEGMENT_KINDS[segment];
    if (name === 'itemId') return String(some(pool.ids.aiItems.map(String)));
    if (kind && pool.ids[kind].length > 0 && random.chance(0.9)) return String(random.pick(pool.ids[kind]));
    const value = this.values.sample(parameter?.schema, name);
    return encodeComponent(String(value));
  }

  /** The body for the mode: valid, mutated at any depth, or replaced whole. */
  private body(request: FuzzRequest, mode: Mode, notes: string[]) {
    const { random } = this;
    const { operation } = request;
    const path = operation.path;
    if (path.endsWith('/webhooks/paddle')) return this.webhook(request, mode, notes);
    if (path.endsWith('/locations/import')) return this.csvUpload(request, mode, notes);
    if (path.endsWith('/image') && operation.method === 'POST') return this.imageUpload(request, mode, notes);

    if (mode === 'raw' || (mode === 'body' && !operation.body)) {
      if (operation.method === 'GET' && random.chance(0.7)) return;
      return this.rawBody(request, notes);
    }
    if (!operation.body) return;
    let value = this.values.sample(operation.body.schema);
    if (mode === 'body') {
      const mutated = this.values.mutate(value);
      value = mutated.value;
      notes.push(`body mutations: ${mutated.applied.join(', ')}`);
    }
    const text = toJsonText(value);
    const plain = operation.body.contentTypes.includes('text/plain') && random.chance(0.3);
    request.headers['content-type'] = plain ? 'text/plain' : 'application/json';
    request.payload = text;
  }

  private rawBody(request: FuzzRequest, notes: string[]) {
    const { random } = this;
    const kind = random.int(0, 7);
    const valid = request.operation.body
      ? toJsonText(this.values.sample(request.operation.body.schema))
      : '{}';
    let contentType = 'application/json';
    switch (kind) {
      case 0:
        request.payload = random.pick(RAW_BODIES);
        break;
      case 1:
        request.payload = deepText(
          random.pick([33, 2_000, 8_000, 100_000]),
          random.pick(['array', 'object', 'mixed'] as const),
        );
        break;
      case 2:
        // Bytes that are not UTF-8, in a string and in a key.
        request.payload = Buffer.concat([
          Buffer.from('{"name":"'),
          Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80, 0xc0, 0xae]),
          Buffer.from('","'),
          Buffer.from([0xed, 0xb0, 0x80]),
          Buffer.from('":1}'),
        ]);
        break;
      case 3:
        contentType = random.pick(ODD_CONTENT_TYPES);
        request.payload = valid;
        break;
      case 4:
        request.payload = `{"a":"${'x'.repeat(MiB + 10)}"}`;
        break;
      case 5:
        request.payload = '';
        break;
      case 6: {
        const multipart = multipartBody({
          fields: {
            [random.pick(['name', 'workspace_id', '\ud800', 'x'])]: random.pick(ODD_STRINGS).slice(0, 200),
          },
          files: [{ field: 'file', content: Buffer.from(valid) }],
        });
        contentType = multipart.headers['content-type'];
        request.payload = multipart.payload;
        break;
      }
      default:
        contentType = '';
        request.payload = valid;
    }
    if (contentType) request.headers['content-type'] = contentType;
    notes.push(`raw body ${kind} (${contentType || 'no content type'}): ${preview(request.payload)}`);
  }

  private csvUpload(request: FuzzRequest, mode: Mode, notes: string[]) {
    const { random, pool } = this;
    const workspace = String(random.pick(pool.ids.workspaces.length > 0 ? pool.ids.workspaces : [1]));
    const header = [
      'title',
      'address',
      'city',
      'zip',
      'lat',
      'lng',
      'tags',
      ...pool.customFieldNames,
      'external_id',
    ];
    const cell = (odd: boolean) => {
      if (!odd)
        return random.pick([
          'Shop',
          '1 Main St',
          'Springfield',
          '62704',
          '39.7',
          '-89.6',
          'wifi|new',
          'hi',
          'M',
        ]);
      const text = random.pick(ODD_STRINGS).slice(0, 2_000);
      return `"${text.replaceAll('"', '""')}"`;
    };
    const odd = mode === 'body' || mode === 'raw';
    const rows = [random.chance(odd ? 0.3 : 0) ? header.map(() => cell(true)).join(',') : header.join(',')];
    for (let count = random.int(0, 20); count > 0; count--) {
      rows.push(header.map(() => cell(odd && random.chance(0.3))).join(','));
    }
    let csv: Buffer = Buffer.from(rows.join(random.pick(['\n', '\r\n'])));
    if (odd && random.chance(0.3)) {
      // Bytes that are not UTF-8 (a CESU-8 surrogate, a lone continuation byte), a NUL, a BOM.
      csv = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        csv,
        Buffer.from('\nBad bytes,'),
        Buffer.from([0xed, 0xa0, 0x80, 0x80, 0x00, 0xff]),
        Buffer.from(',x\n"unterminated'),
      ]);
    }
    const workspaceField: string | Buffer =
      odd && random.chance(0.3)
        ? random.pick<string | Buffer>([
            random.pick(ODD_STRINGS).slice(0, 100),
            Buffer.from([0xed, 0xa0, 0x80]),
            '1e0',
            '-1',
          ])
        : workspace;
    const body = multipartBody({
      fields: random.chance(odd ? 0.9 : 1) ? { workspace_id: workspaceField } : {},
      files: random.chance(odd ? 0.9 : 1)
        ? [{ field: 'file', filename: 'shops.csv', contentType: 'text/csv', content: csv }]
        : [],
    });
    request.headers['content-type'] = body.headers['content-type'];
    request.payload = body.payload;
    notes.push(`csv upload (${mode}): ${preview(csv)}`);
  }

  private imageUpload(request: FuzzRequest, mode: Mode, notes: string[]) {
    const { random } = this;
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082',
      'hex',
    );
    const choices: [string, Buffer][] = [
      ['png', png],
      ['jpeg magic then junk', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('junk')])],
      ['png magic only', png.subarray(0, 8)],
      ['empty', Buffer.alloc(0)],
      ['text', Buffer.from('not an image')],
      ['odd bytes', Buffer.from([0xed, 0xa0, 0x80, 0x00])],
    ];
    const [name, content] = mode === 'valid' ? choices[0]! : random.pick(choices);
    const body = multipartBody({
      files: [
        {
          field: mode === 'valid' || random.chance(0.7) ? 'image' : random.pick(['file', '\ud800', '']),
          filename: random.pick(['shop.png', 'x.jpg', '../../etc/passwd', '\u202egnp.exe']),
          contentType: random.pick(['image/png', 'image/jpeg', 'text/plain']),
          content,
        },
      ],
    });
    request.headers['content-type'] = body.headers['content-type'];
    request.payload = body.payload;
    notes.push(`image upload: ${name}`);
  }

  /** A Paddle notification: a real event of the seeded customer, mutated, signed (mostly). */
  private webhook(request: FuzzRequest, mode: Mode, notes: string[]) {
    const { random } = this;
    const { paddle } = this.world;
    const eventId = `evt_${random.string(26)}`;
    const subscription = [...paddle.subscriptions.values()][0];
    const transaction = [...paddle.transactions.values()][0];
    const type = random.pick([
      'subscription.created',
      'subscription.updated',
      'subscription.canceled',
      'transaction.completed',
      'customer.updated',
      'unknown.type',
    ]);
    const occurredAt = `2027-0${random.int(1, 9)}-1${random.int(0, 9)}T10:00:00.000000Z`;
    const event =
      type.startsWith('transaction') && transaction
        ? paddle.transactionEvent(type, transaction, { eventId, occurredAt })
        : subscription
          ? paddle.subscriptionEvent(type, subscription, { eventId, occurredAt })
          : { event_id: eventId, event_type: type, occurred_at: occurredAt, data: {} };
    // The fake draws notification ids from crypto; the fuzzer's must come from its seed.
    event.notification_id = `ntf_${random.string(26)}`;
    let text: string;
    if (mode === 'body') {
      const mutated = this.values.mutate(event);
      text = toJsonText(mutated.value);
      notes.push(`webhook ${type}, mutations: ${mutated.applied.join(', ')}`);
    } else if (mode === 'raw') {
      text = random.pick([...RAW_BODIES, deepText(random.pick([33, 2_000, 8_000]), 'mixed')]);
      notes.push(`webhook raw: ${preview(text)}`);
    } else {
      text = JSON.stringify(event);
      notes.push(`webhook ${type}`);
    }
    const signed = paddle.signedWebhook(text);
    request.payload = signed.payload;
    request.headers['content-type'] = 'application/json';
    const signature = mode === 'headers' ? random.int(0, 3) : random.chance(0.9) ? 0 : random.int(1, 3);
    if (signature === 0) request.headers['paddle-signature'] = signed.headers['paddle-signature']!;
    else if (signature === 1)
      request.headers['paddle-signature'] = `ts=${Math.floor(Date.now() / 1000)};h1=${'0'.repeat(64)}`;
    else if (signature === 2) request.headers['paddle-signature'] = 'ts=1;h1=00';
    notes.push(['signed', 'forged signature', 'stale signature', 'unsigned'][signature]!);
  }

  private oddHeaders(request: FuzzRequest, notes: string[]) {
    const { random } = this;
    const token = this.world.personas.user.token;
    const kind = random.int(0, 5);
    switch (kind) {
      case 0:
        request.headers.authorization = random.pick([
          'Bearer garbage',
          `Bearer ${token.slice(0, -2)}`,
          `bearer ${token}`,
          `Bearer  ${token}`,
          `Bearer ${token} extra`,
          token,
          'Basic dXNlcjpwYXNz',
          'Bearer',
          `Bearer ${FORGED_JWT}`,
        ]);
        notes.push(`authorization: ${request.headers.authorization.slice(0, 30)}…`);
        break;
      case 1:
        request.headers.origin = random.pick([
          'null',
          'https://evil.test',
          'http://shop.example:99999',
          '%',
          `https://${'x'.repeat(3_000)}.test`,
        ]);
        notes.push(`origin: ${request.headers.origin.slice(0, 40)}`);
        break;
      case 2:
        request.headers.referer = random.pick([
          'not a url',
          'https://shop.example/page',
          'javascript:alert(1)',
          '//',
        ]);
        notes.push(`referer: ${request.headers.referer}`);
        break;
      case 3:
        request.headers['last-event-id'] = random.pick(['-1', '1e9', 'abc', '99999999999999999999', '']);
        request.headers['if-none-match'] = random.pick(['*', '"x"', 'W/"1"', '']);
        notes.push('last-event-id / if-none-match');
        break;
      case 4:
        request.headers['x-request-id'] = random.pick(['x'.repeat(500), 'a b', '../', '']);
        request.headers['accept-language'] = random.pick(['*', 'xx-ZZ', 'de;q=abc']);
        notes.push('x-request-id / accept-language');
        break;
      default:
        if (request.payload !== undefined) {
          request.headers['content-type'] = random.pick(ODD_CONTENT_TYPES);
          notes.push(`content-type: ${request.headers['content-type']}`);
        } else {
          delete request.headers.authorization;
          notes.push('no authorization');
        }
    }
  }

  async send(request: FuzzRequest): Promise<{ status: number; body: string }> {
    if (request.operation.streams) return this.sendStreaming(request);
    const res = await (this.world.app as FastifyInstance).inject({
      method: request.method,
      url: request.url,
      headers: request.headers,
      remoteAddress: request.remoteAddress,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
    return { status: res.statusCode, body: res.body };
  }

  /** Over a real connection: the status line decides; the stream itself is cut at once. */
  private async sendStreaming(request: FuzzRequest): Promise<{ status: number; body: string }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), STREAM_TIMEOUT_MS);
    try {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([, value]) => /^[\x20-\x7e]*$/.test(value)),
      );
      const response = await fetch(`${this.world.baseUrl}${request.url}`, {
        method: request.method,
        headers,
        signal: controller.signal,
      });
      const body = response.headers.get('content-type')?.includes('json') ? await response.text() : '';
      controller.abort();
      return { status: response.status, body };
    } catch (error) {
      if ((error as Error).name === 'AbortError') return { status: 0, body: 'no status within 5 s' };
      // A URL fetch refuses to send (an invalid one): not the service's answer.
      return { status: 400, body: `not sent: ${(error as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  }

  async run(options: FuzzOptions): Promise<FuzzReport> {
    const started = performance.now();
    const report: FuzzReport = {
      seed: options.seed,
      budget: options.budget,
      requests: 0,
      byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 },
      byStatus: {},
      byOperation: {},
      msByOperation: {},
      restoreMs: 0,
      failures: [],
      restores: 0,
      durationMs: 0,
    };
    const failures = new Map<string, Failure>();
    const plan = this.plan();
    const concurrency = Math.max(1, options.concurrency ?? 1);
    const inFlight = new Set<Promise<void>>();
    let pending: RestoreScope | undefined;

    const record = (index: number, request: FuzzRequest, status: number, body: string, sentAt: number) => {
      const { operation } = request;
      const now = performance.now();
      report.msByOperation[operation.id] = (report.msByOperation[operation.id] ?? 0) + now - sentAt;
      report.requests += 1;
      report.byStatus[String(status)] = (report.byStatus[String(status)] ?? 0) + 1;
      const cls = status === 0 ? '5xx' : statusClass(status);
      report.byClass[cls] += 1;
      const perOperation = report.byOperation[operation.id] ?? { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
      perOperation[cls] += 1;
      report.byOperation[operation.id] = perOperation;
      if (cls === '5xx') {
        const code = errorCode(body);
        const key = `${operation.method} ${operation.path} ${status} ${code ?? ''}`;
        const known = failures.get(key);
        if (known) known.count += 1;
        else {
          const failure: Failure = {
            method: operation.method,
            path: operation.path,
            status,
            code,
            count: 1,
            index,
            request,
            response: body.slice(0, 500),
            log: this.world.errorLog
              .filter((entry) => entry.at >= sentAt && entry.at <= now)
              .map((entry) => entry.line.slice(0, 20_000)),
          };
          failures.set(key, failure);
          options.onFailure?.(failure);
        }
      }
      const scope = restoreScope(operation, request.caller, request.mode, status, index);
      if (scope) {
        pending = {
          people: scope.people || (pending?.people ?? false),
          seeds: scope.seeds || (pending?.seeds ?? false),
          integrations: scope.integrations || (pending?.integrations ?? false),
        };
      }
      if (options.onProgress && report.requests % (options.every ?? 5_000) === 0) options.onProgress(report);
    };

    for (let index = 1; index <= options.budget; index++) {
      if (pending) {
        // Nothing may be under way while the people and their resources are put back.
        await Promise.all(inFlight);
        const scope = pending;
        pending = undefined;
        const restoring = performance.now();
        await this.world.restore(scope);
        report.restores += 1;
        report.restoreMs += performance.now() - restoring;
      }
      const { operation, caller, mode } = plan.next().value as {
        operation: Operation;
        caller: Caller;
        mode: Mode;
      };
      const request = this.build(operation, caller, mode);
      const sentAt = performance.now();
      const sent: Promise<void> = this.send(request).then(({ status, body }) => {
        record(index, request, status, body, sentAt);
        inFlight.delete(sent);
      });
      inFlight.add(sent);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    this.world.errorLog.length = 0;
    report.failures = [...failures.values()];
    report.durationMs = performance.now() - started;
    return report;
  }
}

function errorCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

export function preview(payload: string | Buffer | undefined, length = 120): string {
  if (payload === undefined) return '(none)';
  const text = Buffer.isBuffer(payload) ? payload.toString('latin1') : payload;
  const shown = JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
  return text.length > length ? `${shown} (${text.length} chars)` : shown;
}
