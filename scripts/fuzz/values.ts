// Values for requests: valid ones drawn from a JSON schema (with real ids and tokens where a
// field's name says what it holds), odd ones (strings PostgreSQL cannot store, direction marks,
// SQL and HTML, huge numbers, deep nesting, huge arrays), and mutations of a valid body at any
// depth. Text that JSON.stringify cannot write (2,000 levels of nesting, `1e999`) travels as a
// Raw value and is spliced into the serialized body.
import { deref, type JsonSchema, type OpenApiDocument } from './openapi.ts';
import type { Random } from './random.ts';

/** JSON text inserted as is where this value stands. */
export class Raw {
  constructor(readonly text: string) {}
}

/** What the fuzzer knows exists on the server: real ids and tokens to aim at. */
export interface Pool {
  ids: Record<IdKind, number[]>;
  finderTokens: string[];
  inviteTokens: string[];
  transactionIds: string[];
  prices: string[];
  providerKeys: string[];
  customFieldNames: string[];
  /** Paths under /cdn of files that exist (a published finder's). */
  cdnPaths: string[];
}

export type IdKind =
  | 'users'
  | 'workspaces'
  | 'sets'
  | 'tags'
  | 'customFields'
  | 'maps'
  | 'processes'
  | 'aiImports'
  | 'aiItems'
  | 'locations'
  | 'finders'
  | 'sessions';

export const ID_KINDS: IdKind[] = [
  'users',
  'workspaces',
  'sets',
  'tags',
  'customFields',
  'maps',
  'processes',
  'aiImports',
  'aiItems',
  'locations',
  'finders',
  'sessions',
];

export const emptyPool = (): Pool => ({
  ids: Object.fromEntries(ID_KINDS.map((kind) => [kind, []])) as unknown as Record<IdKind, number[]>,
  finderTokens: [],
  inviteTokens: [],
  transactionIds: [],
  prices: [],
  providerKeys: [],
  customFieldNames: [],
  cdnPaths: [],
});

/** The path segment before a parameter says what it names: `/sets/{id}` is a set. */
export const SEGMENT_KINDS: Record<string, IdKind> = {
  users: 'users',
  workspaces: 'workspaces',
  sets: 'sets',
  tags: 'tags',
  'custom-field-definitions': 'customFields',
  maps: 'maps',
  processes: 'processes',
  'ai-location-imports': 'aiImports',
  items: 'aiItems',
  locations: 'locations',
  finders: 'finders',
  sessions: 'sessions',
};

/** A body or query field's name says what it holds. */
const FIELD_KINDS: Record<string, IdKind> = {
  workspace_id: 'workspaces',
  workspaces: 'workspaces',
  finder_id: 'finders',
  location_id: 'locations',
  locations: 'locations',
  set_ids: 'sets',
  sets: 'sets',
  ids: 'customFields',
  owners: 'users',
  user_id: 'users',
  map_id: 'maps',
  process_id: 'processes',
};

const WIDGET_SETTING_KEYS = [
  'language',
  'units',
  'direction',
  'primary_color',
  'tile_url',
  'tile_attribution',
  'tile_attribution_url',
  'default_center',
  'default_zoom',
  'tag_filter_mode',
  'show_map',
  'height',
  'search_country',
  'directions_url',
];

const HIGH = '\ud800';
const LOW = '\udc00';

/** Strings that have broken services somewhere: storage, encoding, parsing, rendering, SQL. */
export const ODD_STRINGS: readonly string[] = [
  HIGH,
  LOW,
  `a${HIGH}b`,
  `${LOW}${HIGH}`,
  '\ud83d',
  `x${LOW}`,
  'a\u0000b',
  '\u0000',
  '\u202eevil\u202c',
  '\u200f\u200e\u200b\ufeff',
  'مرحبا بالعالم',
  'שלום',
  '😀👍🏽👨‍👩‍👧🇩🇪',
  'e\u0301\u0301\u0301',
  'ﬁİßǅ',
  '\u2028\u2029',
  '\u0001\u001f\u007f\u0085',
  '',
  ' ',
  '\t\r\n',
  "' OR 1=1 --",
  "'; drop table users; --",
  "%' and '1'='1",
  '\\',
  '$1 $$ #{x} %{x}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}',
  '%s%s%n',
  '../../etc/passwd',
  '%00%2e%2e%2f',
  'C:\\Windows\\system32',
  'javascript:alert(1)',
  'http://',
  'https://[::1]:99999/',
  'ftp://shop.example/',
  '@',
  'a@b',
  'user@@example.test',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '9'.repeat(400),
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59+14:00',
  '2024-02-30T00:00:00Z',
  '275760-09-13T00:00:00.000Z',
  '-001000-01-01T00:00:00Z',
  '1970-01-01T00:00:00.0000000001Z',
  'not-a-date',
  'null',
  'true',
  '[]',
  '{"a":1}',
  '__proto__',
  'constructor',
  'toString',
  'x'.repeat(256),
  'x'.repeat(10_000),
  'é'.repeat(20_000),
  '😀'.repeat(5_000),
];

export const ODD_NUMBERS: readonly number[] = [
  0, -1, 1.5, 0.1, -0.000001, 2_147_483_647, 2_147_483_648, -2_147_483_648, 4_294_967_296,
  9_007_199_254_740_991, 1e21, 1e308, -1e308, 5e-324,
];

/** Numbers JSON can write but JavaScript cannot hold (1e999 parses as Infinity). */
const RAW_NUMBERS = [
  '1e999',
  '-1e999',
  '-0',
  '1E+400',
  '123456789012345678901234567890',
  '9007199254740993',
  '0.000000000000000000000000001',
  '1.0',
  '-0.0',
];

export const ODD_KEYS: readonly string[] = [
  '',
  ' ',
  HIGH,
  `k${LOW}`,
  '\u0000',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '$where',
  'a.b',
  '0',
  '😀',
  'k'.repeat(1_000),
];

/** Depths of nesting to try: both sides of the limit (32), and far past it. */
const DEPTHS = [31, 32, 33, 64, 2_000, 8_000, 100_000];

export function deepText(depth: number, style: 'array' | 'object' | 'mixed'): string {
  if (style === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (style === 'object') return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  const half = Math.floor(depth / 2);
  return `${'[{"a":'.repeat(half)}1${'}]'.repeat(half)}`;
}

/** A value's JSON text with every Raw spliced in. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Raw ? `@@raw:${raws.push(item.text) - 1}@@` : item,
  );
  if (text === undefined) return '';
  return text.replace(/"@@raw:(\d+)@@"/g, (_match, index: string) => raws[Number(index)]!);
}

/** `a=1` components: percent-encoding of any string, lone surrogates included (as their CESU-8 bytes). */
export function encodeComponent(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

const WORDS = ['Downtown', 'Main Street', 'Café Zürich', 'Shop', 'North', 'Bakery', 'Airport', 'Harbour'];

/** An own property even for `__proto__` (a plain assignment would set the prototype instead). */
function setKey(object: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

interface Slot {
  parent: Record<string, unknown> | unknown[] | null;
  key: string | number;
  value: unknown;
}

/** Every place in a value, the value itself first (parent null): mutations pick one at any depth. */
function slots(root: unknown): Slot[] {
  const found: Slot[] = [{ parent: null, key: '', value: root }];
  const stack: unknown[] = [root];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item instanceof Raw || item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      item.forEach((child, index) => {
        found.push({ parent: item, key: index, value: child });
        stack.push(child);
      });
    } else {
      for (const [key, child] of Object.entries(item)) {
        found.push({ parent: item as Record<string, unknown>, key, value: child });
        stack.push(child);
      }
    }
  }
  return found;
}

export type Mutation =
  | 'odd_string'
  | 'odd_number'
  | 'raw_number'
  | 'wrong_type'
  | 'deep'
  | 'huge_array'
  | 'long_string'
  | 'drop_key'
  | 'extra_key'
  | 'odd_key';

export class Values {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly random: Random,
    private readonly pool: () => Pool,
  ) {}

  // --- valid values -----------------------------------------------------------------------

  /** A value the schema accepts (as far as a schema can say), aimed at real ids by field name. */
  sample(schema: JsonSchema | undefined, name = '', depth = 0): unknown {
    const s = deref(this.document, schema ?? {});
    const { random } = this;
    // A schema that refers to itself (a tree) ends somewhere.
    if (depth > 12) return null;
    if ('const' in s) return s.const;
    if (s.enum && s.enum.length > 0) return random.pick(s.enum);
    if (s.allOf) return this.sample(this.merge(s.allOf), name, depth);
    const options = s.anyOf ?? s.oneOf;
    if (options && options.length > 0) {
      const resolved = options.map((option) => deref(this.document, option));
      const notNull = resolved.filter((option) => option.type !== 'null');
      const choice = notNull.length > 0 && random.chance(0.85) ? random.pick(notNull) : random.pick(resolved);
      return this.sample(choice, name, depth);
    }
    let type = s.type;
    if (Array.isArray(type)) {
      const notNull = type.filter((t) => t !== 'null');
      type = notNull.length > 0 && random.chance(0.85) ? random.pick(notNull) : random.pick(type);
    }
    type ??= s.properties ? 'object' : s.items ? 'array' : undefined;
    switch (type) {
      case 'object':
        return this.sampleObject(s, name, depth);
      case 'array': {
        const min = s.minItems ?? 0;
        const max = Math.min(s.maxItems ?? min + 3, min + 3);
        const singular = name.replace(/s$/, '');
        return Array.from({ length: random.int(min, Math.max(min, max)) }, () =>
          this.sample(s.items, FIELD_KINDS[name] ? name : singular, depth + 1),
        );
      }
      case 'string':
        return this.sampleString(s, name);
      case 'integer':
        return this.sampleInteger(s, name);
      case 'number':
        return this.sampleNumber(s, name);
      case 'boolean':
        return random.chance(0.5);
      case 'null':
        return null;
      default:
        return this.freeValue(name, depth);
    }
  }

  private merge(schemas: JsonSchema[]): JsonSchema {
    const merged: JsonSchema = { properties: {}, required: [] };
    for (const part of schemas.map((schema) => deref(this.document, schema))) {
      Object.assign(merged, { ...part, properties: { ...merged.properties, ...part.properties } });
      merged.required = [...(merged.required ?? []), ...(part.required ?? [])];
    }
    return merged;
  }

  private sampleObject(s: JsonSchema, name: string, depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const required = new Set(s.required ?? []);
    for (const [key, property] of Object.entries(s.properties ?? {})) {
      if (required.has(key) || this.random.chance(0.6)) object[key] = this.sample(property, key, depth + 1);
    }
    if (object.password !== undefined && 'password_confirmation' in (s.properties ?? {})) {
      object.password_confirmation = object.password;
    }
    const extra = s.additionalProperties;
    if (!s.properties && extra !== false) {
      // A record (custom_fields): keys the workspace knows, values of any kind.
      const names = name === 'custom_fields' ? this.pool().customFieldNames : ['a', 'b'];
      for (let index = this.random.int(0, 3); index > 0 && names.length > 0; index--) {
        const key = this.random.pick(names);
        object[key] =
          typeof extra === 'object' && Object.keys(extra).length > 0
            ? this.sample(extra, key, depth + 1)
            : this.freeValue(key, depth + 1);
      }
    }
    return object;
  }

  private sampleString(s: JsonSchema, name: string): string {
    const candidates = this.namedStrings(name, s);
    const generic = [
      this.random.string(8),
      'Abc_1',
      '1',
      `txn_${this.random.string(26)}`,
      'en',
      'de-DE',
      '2026-01-15T10:00:00Z',
      'https://shop.example/',
    ];
    let value = candidates[0] ?? this.random.pick(WORDS);
    if (s.format === 'email') value = this.email();
    else if (s.format === 'date-time') value = this.isoTime();
    if (s.pattern) {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(s.pattern, 'u');
      } catch {
        pattern = undefined;
      }
      if (pattern && !pattern.test(value)) {
        value = [...candidates, ...generic].find((candidate) => pattern.test(candidate)) ?? value;
      }
    }
    if (s.minLength !== undefined && value.length < s.minLength) value = value.padEnd(s.minLength, 'x');
    if (s.maxLength !== undefined && value.length > s.maxLength) value = value.slice(0, s.maxLength);
    return value;
  }

  /** What a field of this name usually holds (first the best guess). */
  private namedStrings(name: string, s: JsonSchema): string[] {
    const pool = this.pool();
    const { random } = this;
    const some = (items: string[]) => (items.length > 0 ? [random.pick(items)] : []);
    switch (name) {
      case 'email':
        return [this.email()];
      case 'password':
      case 'password_confirmation':
        return ['fuzz-password-123'];
      case 'finder_token':
      case 'finder_key':
      case 'token':
      case 'key':
        return s.pattern || name !== 'key' ? some(pool.finderTokens) : [random.pick(WIDGET_SETTING_KEYS)];
      case 'price_id':
        return some(pool.prices);
      case 'api_key':
        return some(pool.providerKeys);
      case 'code':
        return ['123456'];
      case 'q':
      case 'query':
        return [random.pick(['coffee', 'Berlin', 'Main St', 'Springfield'])];
      case 'website':
      case 'url':
        return ['https://shop.example/store'];
      case 'phone':
        return ['+1 217 555 0142'];
      case 'country':
        return [random.pick(['United States', 'Germany', 'DE', 'us'])];
      case 'zip':
        return ['62704'];
      case 'city':
        return [random.pick(['Springfield', 'Berlin'])];
      case 'address':
        return ['123 Main St'];
      case 'field':
        return [random.pick(['tag', 'set', 'city', 'country', 'custom_field.note'])];
      case 'external_id':
        return [`ext-${random.string(6)}`];
      case 'approximate_location_count':
        return [random.pick(['5', '10-20', '50+'])];
      case 'source_notes':
        return ['1. Daily Grind Downtown - 123 Main St, Springfield, IL 62704 - (217) 555-0142'];
      case 'occurred_at':
      case 'from':
      case 'to':
        return [this.isoTime()];
      case 'language':
        return ['en'];
      case 'session_id':
      case 'session_token':
        return [random.string(16)];
      case 'method':
        return [random.pick(['GET', 'POST', 'PUT', 'DELETE'])];
      case 'last_event_id':
        return [String(random.int(0, 20))];
      case 'transactionId':
        return some(pool.transactionIds);
      default:
        return [];
    }
  }

  private sampleInteger(s: JsonSchema, name: string): number {
    const kind = FIELD_KINDS[name];
    const ids = kind ? this.pool().ids[kind] : [];
    if (ids.length > 0 && this.random.chance(0.85)) return this.random.pick(ids);
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
    const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : min + 1_000);
    if (name === 'limit') return this.random.int(Math.max(min, 1), Math.min(max, 50));
    if (name === 'offset' || name === 'after_id') return this.random.int(min, Math.min(max, 5));
    if (name === 'status') return this.random.pick([200, 201, 404, 422]);
    return this.random.int(min, Math.min(max, min + 100));
  }

  private sampleNumber(s: JsonSchema, name: string): number {
    if (name === 'lat') return Math.round((this.random.next() * 180 - 90) * 1e6) / 1e6;
    if (name === 'lng') return Math.round((this.random.next() * 360 - 180) * 1e6) / 1e6;
    const min = s.minimum ?? s.exclusiveMinimum ?? 0;
    const max = s.maximum ?? s.exclusiveMaximum ?? min + 1_000;
    return min + Math.round(this.random.next() * (max - min) * 100) / 100;
  }

  /** A value where the schema allows anything (a setting's value, a custom field's). */
  freeValue(name = '', depth = 0): unknown {
    const { random } = this;
    // The seeded custom fields: note* is text, size* a select of S, M, L.
    if (/^note\d+$/.test(name)) return random.pick(['Open late', 'Mo-Fr 9-18']);
    if (/^size\d+$/.test(name)) return random.pick(['S', 'M', 'L']);
    if (name === 'value' || name === 'default_center') {
      return random.pick<unknown>(['km', 'de', '#1d4ed8', true, 12, { lat: 52.5, lng: 13.4 }, null, 'S']);
    }
    switch (random.int(0, depth > 3 ? 3 : 5)) {
      case 0:
        return random.pick(WORDS);
      case 1:
        return random.int(-10, 1_000);
      case 2:
        return random.chance(0.5);
      case 3:
        return null;
      case 4:
        return [random.pick(WORDS), random.int(0, 9)];
      default:
        return { [random.pick(['a', 'b', 'note'])]: this.freeValue('', depth + 1) };
    }
  }

  email(): string {
    return `fuzz.${this.random.string(8)}@example.test`;
  }

  isoTime(): string {
    return `2026-0${this.random.int(1, 9)}-1${this.random.int(0, 9)}T1${this.random.int(0, 9)}:00:00Z`;
  }

  // --- odd values and mutations -----------------------------------------------------------

  oddString(): string {
    return this.random.pick(ODD_STRINGS);
  }

  oddValue(): unknown {
    const { random } = this;
    switch (random.weighted({ string: 6, number: 2, raw: 1, type: 2, deep: 1, array: 1 })) {
      case 'string':
        return this.oddString();
      case 'number':
        return random.pick(ODD_NUMBERS);
      case 'raw':
        return new Raw(random.pick(RAW_NUMBERS));
      case 'type':
        return random.pick<unknown>([true, false, null, [], {}, 0, '', [null], { '': null }]);
      case 'deep':
        return this.deep();
      default:
        return this.hugeArray();
    }
  }

  deep(): Raw {
    return new Raw(
      deepText(this.random.pick(DEPTHS), this.random.pick(['array', 'object', 'mixed'] as const)),
    );
  }

  hugeArray(): unknown {
    const { random } = this;
    switch (random.int(0, 3)) {
      case 0:
        return Array.from({ length: 10_000 }, (_, index) => index + 1);
      case 1:
        return Array.from({ length: 1_000 }, () => this.oddString().slice(0, 100));
      case 2:
        return new Raw(`[${'0,'.repeat(200_000)}0]`);
      default:
        return Array.from({ length: 2_000 }, () => ({ a: random.int(0, 9) }));
    }
  }

  /** One to three mutations of a valid value at any depth; returns the new value. */
  mutate(value: unknown): { value: unknown; applied: Mutation[] } {
    const { random } = this;
    let root: unknown = value === undefined ? {} : structuredClone(value);
    const applied: Mutation[] = [];
    for (let count = random.int(1, 3); count > 0; count--) {
      const all = slots(root);
      const slot = random.pick(all);
      const mutation = random.weighted<Mutation>({
        odd_string: 8,
        odd_number: 3,
        raw_number: 1,
        wrong_type: 4,
        deep: 2,
        huge_array: 1,
        long_string: 1,
        drop_key: 3,
        extra_key: 2,
        odd_key: 2,
      });
      applied.push(mutation);
      const set = (replacement: unknown) => {
        if (slot.parent === null) root = replacement;
        else (slot.parent as Record<string | number, unknown>)[slot.key] = replacement;
      };
      switch (mutation) {
        case 'odd_string':
          set(this.oddString());
          break;
        case 'odd_number':
          set(random.pick(ODD_NUMBERS));
          break;
        case 'raw_number':
          set(new Raw(random.pick(RAW_NUMBERS)));
          break;
        case 'wrong_type':
          set(random.pick<unknown>([true, null, [], {}, 0, '', 'x', [slot.value], { value: slot.value }]));
          break;
        case 'deep':
          set(this.deep());
          break;
        case 'huge_array':
          set(this.hugeArray());
          break;
        case 'long_string':
          set(random.pick(['x'.repeat(100_000), 'é'.repeat(400_000), `${HIGH}`.repeat(1_000)]));
          break;
        case 'drop_key':
          if (slot.parent && !Array.isArray(slot.parent)) delete slot.parent[slot.key as string];
          else if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
          break;
        case 'extra_key': {
          const target =
            slot.value !== null && typeof slot.value === 'object' && !(slot.value instanceof Raw);
          const object = target ? (slot.value as Record<string, unknown>) : slot.parent;
          if (object && !Array.isArray(object))
            setKey(object, random.pick([...ODD_KEYS, 'extra']), this.oddValue());
          else if (Array.isArray(object)) object.push(this.oddValue());
          else root = { extra: this.oddValue() };
          break;
        }
        case 'odd_key':
          if (slot.parent && !Array.isArray(slot.parent)) {
            delete slot.parent[slot.key as string];
            setKey(slot.parent, random.pick(ODD_KEYS), slot.value);
          } else {
            const wrapper: Record<string, unknown> = {};
            setKey(wrapper, random.pick(ODD_KEYS), slot.value);
            set(wrapper);
          }
          break;
      }
    }
    return { value: root, applied };
  }
}
