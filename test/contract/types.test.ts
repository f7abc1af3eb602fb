/**
 * The TypeScript types of the core, the server client and the simulator agree with openapi.json: each
 * interface below is read with the TypeScript compiler and compared, field by field, with the schema it
 * mirrors: every field's name, type and optionality. The server client's types are the same fields in
 * camelCase. Where a type differs on purpose (a client normalises what it reads), the difference is in
 * DELIBERATE with the reason; a difference not listed there, or a listed one that no longer exists, fails.
 *   npm run ci -- contract (this file: node --import ./scripts/ts-register.mjs --test test/contract/types.test.ts)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ts from 'typescript';
import { openapi } from './openapi-check.mjs';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
};

interface Mirror {
  /** file#Interface, or file#Interface.field for an object-typed field. */
  ts: string;
  /** A pointer into openapi.json: #/components/schemas/X, or deeper. */
  schema: string;
  /** How a schema field is named in the TypeScript type: as is, or in camelCase. */
  names: 'wire' | 'camel';
  /** Schema fields this type reads from elsewhere: TypeScript name -> pointer to the field's schema. */
  moved?: Record<string, string>;
}

const CORE = 'src/core/types.ts';
const RESULTS = 'src/server/results.ts';
const CLIENT = 'src/server/server-client.ts';
const RECHARGE = 'src/server/recharge-client.ts';
const EVENTS = 'src/server/webhook-events.ts';
const MOCK = 'packages/hub-embed-mock/src/types.ts';
const S = '#/components/schemas';
const logs = '#/paths/~1points~1users~1logs/get/parameters';
const list = '#/paths/~1projects~1published-list/get/parameters';

const MIRRORS: Mirror[] = [
  { ts: `${CORE}#Envelope`, schema: `${S}/SuccessEnvelope`, names: 'wire' },
  { ts: `${CORE}#AccessToken`, schema: `${S}/AccessToken`, names: 'wire' },
  { ts: `${CORE}#PublishedTable`, schema: `${S}/PublishedTable`, names: 'wire' },
  { ts: `${RESULTS}#Token`, schema: `${S}/AccessToken`, names: 'camel' },
  { ts: `${RESULTS}#Balance`, schema: `${S}/Balance`, names: 'camel' },
  { ts: `${RESULTS}#RechargeResult`, schema: `${S}/RechargeResult`, names: 'camel' },
  { ts: `${RESULTS}#PointsLogRecord`, schema: `${S}/PointsLogRecord`, names: 'camel' },
  { ts: `${RESULTS}#LogsPage`, schema: `${S}/LogsPage`, names: 'camel' },
  { ts: `${CLIENT}#RechargeInput`, schema: `${S}/RechargeRequest`, names: 'camel' },
  { ts: `${RECHARGE}#RechargeBody`, schema: `${S}/RechargeRequest`, names: 'wire' },
  {
    ts: `${CLIENT}#LogsQuery`,
    schema: '',
    names: 'camel',
    moved: { page: `${logs}/1/schema`, pageSize: `${logs}/2/schema` },
  },
  {
    ts: `${CLIENT}#PublishedListQuery`,
    schema: '',
    names: 'camel',
    moved: { tags: `${list}/0/schema`, limit: `${list}/1/schema` },
  },
  {
    ts: `${EVENTS}#NotificationEvent.notification`,
    schema: `${S}/NotificationEvent/properties/notification`,
    names: 'camel',
  },
  {
    ts: `${EVENTS}#BillingEvent`,
    schema: `${S}/BillingEvent/properties/billing`,
    names: 'camel',
    moved: {
      event: `${S}/WebhookEventBase/properties/event`,
      shortCode: `${S}/WebhookEventBase/properties/short_code`,
      projectIconUrl: `${S}/WebhookEventBase/properties/project_icon_url`,
      clientUserId: `${S}/WebhookEventBase/properties/target/properties/client_user_id`,
      timestampText: `${S}/WebhookEventBase/properties/timestamp`,
    },
  },
  {
    ts: `${EVENTS}#NotificationEvent`,
    schema: '',
    names: 'camel',
    moved: {
      event: `${S}/WebhookEventBase/properties/event`,
      shortCode: `${S}/WebhookEventBase/properties/short_code`,
      projectIconUrl: `${S}/WebhookEventBase/properties/project_icon_url`,
      clientUserId: `${S}/WebhookEventBase/properties/target/properties/client_user_id`,
      timestampText: `${S}/WebhookEventBase/properties/timestamp`,
    },
  },
  { ts: `${MOCK}#WebhookBody`, schema: `${S}/WebhookEventBase`, names: 'wire' },
  { ts: `${MOCK}#WebhookBody.target`, schema: `${S}/WebhookEventBase/properties/target`, names: 'wire' },
  { ts: `${MOCK}#WebhookBody.notification`, schema: `${S}/NotificationEvent/properties/notification`, names: 'wire' },
  { ts: `${MOCK}#WebhookBody.billing`, schema: `${S}/BillingEvent/properties/billing`, names: 'wire' },
];

/**
 * The differences on purpose, each with its reason: `<ts>.<field>: <what differs>`, as the comparison
 * words it. A difference found and not listed fails; a listed one no longer found fails too.
 */
const DELIBERATE: Record<string, string> = {
  [`${CORE}#PublishedTable.icon: optional in TypeScript, required in openapi.json`]:
    'the browser client drops an icon that is not an http(s) URL (it is drawn in an <img>)',
  [`${CORE}#PublishedTable.total: optional in TypeScript, required in openapi.json`]:
    'the client keeps `total` when present; the widget never needs it',
  [`${RECHARGE}#RechargeBody.reason: required in TypeScript, optional in openapi.json`]:
    'the toolkit always sends a reason: it carries the order marker of the exactly-once recharge',
  [`${CLIENT}#PublishedListQuery.tags: string[] in TypeScript, string in openapi.json`]:
    'the client takes a list and joins it with commas, as the query wants',
  [`${EVENTS}#BillingEvent.clientUserId: string in TypeScript, null|string in openapi.json`]:
    'the webhook handler refuses a charge or refund for nobody before the callback sees it',
  [`${MOCK}#WebhookBody.notification: in TypeScript only`]:
    'the simulator has one body type for both kinds; NotificationEvent carries the object in openapi.json',
  [`${MOCK}#WebhookBody.billing: in TypeScript only`]:
    'the simulator has one body type for both kinds; BillingEvent carries the object in openapi.json',
  [`${EVENTS}#BillingEvent.timestamp: in TypeScript only`]: 'the parsed instant of `timestamp` (a Date)',
  [`${EVENTS}#BillingEvent.timestampOffsetMinutes: in TypeScript only`]: 'the offset of `timestamp`, parsed',
  [`${EVENTS}#BillingEvent.raw: in TypeScript only`]: 'the parsed body, for fields this toolkit does not know yet',
  [`${EVENTS}#BillingEvent.amountCents: in TypeScript only`]: '`billing.amount` parsed into integer cents',
  [`${EVENTS}#NotificationEvent.timestamp: in TypeScript only`]: 'the parsed instant of `timestamp` (a Date)',
  [`${EVENTS}#NotificationEvent.timestampOffsetMinutes: in TypeScript only`]: 'the offset of `timestamp`, parsed',
  [`${EVENTS}#NotificationEvent.raw: in TypeScript only`]: 'the parsed body, for fields this toolkit does not know yet',
  [`${EVENTS}#NotificationEvent.notification: in TypeScript only`]:
    'compared on its own (NotificationEvent.notification)',
  [`${EVENTS}#NotificationEvent.link: in TypeScript only`]:
    'a method: the link rule of the spec, built for the receiver',
};

function at(pointer: string): Schema {
  let node: unknown = openapi;
  for (const part of pointer.replace(/^#\//, '').split('/'))
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === undefined) throw new Error(`openapi.json has nothing at ${pointer}`);
  const schema = node as Schema;
  return schema.$ref ? at(schema.$ref) : schema;
}

/** Whether the field or parameter at `pointer` is required where it stands. */
function requiredAt(pointer: string): boolean {
  const parameter = /^(.*\/parameters\/\d+)\/schema$/.exec(pointer);
  if (parameter) return (at(parameter[1]!) as { required?: unknown }).required === true;
  const property = /^(.*)\/properties\/([^/]+)$/.exec(pointer)!;
  return at(property[1]!).required?.includes(property[2]!) ?? false;
}

/** A schema's type in the words TypeScript's would be put in: number, string|null, string[], object. */
function schemaKind(schema: Schema): string {
  const resolved = schema.$ref ? at(schema.$ref) : schema;
  if (resolved.allOf && !resolved.type) return 'object';
  if (resolved.type === undefined && resolved.const !== undefined) return typeof resolved.const;
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  return types
    .map((type) => (type === 'integer' ? 'number' : type === 'array' ? `${schemaKind(resolved.items!)}[]` : type!))
    .sort()
    .join('|');
}

const program = ts.createProgram([CORE, RESULTS, CLIENT, RECHARGE, EVENTS, MOCK], {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  resolveJsonModule: true,
});
const checker = program.getTypeChecker();

function typeKind(type: ts.Type): string {
  if (type.isUnion()) {
    const parts = new Set(type.types.filter((part) => !(part.flags & ts.TypeFlags.Undefined)).map(typeKind));
    return [...parts].sort().join('|');
  }
  if (type.isIntersection() && type.types.some((part) => part.flags & ts.TypeFlags.StringLike)) return 'string';
  if (type.flags & ts.TypeFlags.StringLike) return 'string';
  if (type.flags & ts.TypeFlags.NumberLike) return 'number';
  if (type.flags & ts.TypeFlags.BooleanLike) return 'boolean';
  if (type.flags & ts.TypeFlags.Null) return 'null';
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter)) return 'any';
  if (checker.isArrayType(type)) return `${typeKind(checker.getTypeArguments(type as ts.TypeReference)[0]!)}[]`;
  return 'object';
}

interface Field {
  kind: string;
  optional: boolean;
}

/** The fields of `file#Interface` (or of its object-typed field `file#Interface.field`). */
function fieldsOf(reference: string): Map<string, Field> {
  const [file, path] = reference.split('#') as [string, string];
  const [name, member] = path.split('.');
  const source = program.getSourceFile(file);
  assert.ok(source, `${file} is not in the program`);
  const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === name);
  assert.ok(symbol, `${file} declares no ${name}`);
  let type = checker.getDeclaredTypeOfSymbol(symbol);
  if (member) {
    const property = type.getProperty(member);
    assert.ok(property, `${name} has no field ${member}`);
    type = checker.getNonNullableType(checker.getTypeOfSymbol(property));
  }
  const fields = new Map<string, Field>();
  for (const property of checker.getPropertiesOfType(type)) {
    fields.set(property.name, {
      kind: typeKind(checker.getTypeOfSymbol(property)),
      optional: (property.flags & ts.SymbolFlags.Optional) !== 0,
    });
  }
  return fields;
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Every difference between one TypeScript type and the schema it mirrors, in DELIBERATE's words. */
function differences(mirror: Mirror): string[] {
  const fields = fieldsOf(mirror.ts);
  const found: string[] = [];
  const expected = new Map<string, { kind: string; required: boolean }>();
  if (mirror.schema) {
    const schema = at(mirror.schema);
    const parts = [schema, ...(schema.allOf ?? []).map((part) => (part.$ref ? at(part.$ref) : part))];
    for (const part of parts)
      for (const [wire, property] of Object.entries(part.properties ?? {})) {
        const name = mirror.names === 'camel' ? camel(wire) : wire;
        const required = parts.some((p) => p.required?.includes(wire));
        expected.set(name, { kind: schemaKind(property), required });
      }
    // The envelope's `data` is the endpoint's payload: a type parameter on the TypeScript side.
    if (expected.has('data')) expected.set('data', { kind: 'any', required: true });
  }
  for (const [name, pointer] of Object.entries(mirror.moved ?? {}))
    expected.set(name, { kind: schemaKind(at(pointer)), required: requiredAt(pointer) });
  for (const [name, wire] of expected) {
    const field = fields.get(name);
    if (!field) {
      found.push(`${mirror.ts}.${name}: in openapi.json only`);
      continue;
    }
    if (field.kind !== wire.kind)
      found.push(`${mirror.ts}.${name}: ${field.kind} in TypeScript, ${wire.kind} in openapi.json`);
    if (field.optional === wire.required)
      found.push(
        `${mirror.ts}.${name}: ${field.optional ? 'optional' : 'required'} in TypeScript, ${wire.required ? 'required' : 'optional'} in openapi.json`,
      );
  }
  for (const name of fields.keys()) if (!expected.has(name)) found.push(`${mirror.ts}.${name}: in TypeScript only`);
  return found;
}

test('the TypeScript types of the core, the server client and the simulator agree with openapi.json', () => {
  const found = MIRRORS.flatMap(differences);
  const unexplained = found.filter((difference) => !(difference in DELIBERATE));
  assert.deepEqual(unexplained, [], 'differences between the types and openapi.json that DELIBERATE does not explain');
  const stale = Object.keys(DELIBERATE).filter((difference) => !found.includes(difference));
  assert.deepEqual(stale, [], 'DELIBERATE lists differences that no longer exist');
});

test('the event names of the server toolkit are the webhooks of openapi.json', async () => {
  const { NOTIFICATION_EVENTS } = await import('../../src/server/webhook-events.js');
  assert.deepEqual(Object.keys(openapi.webhooks), [...NOTIFICATION_EVENTS, 'billing_deduct', 'billing_refund']);
  assert.deepEqual(at(`${S}/NotificationEvent/properties/event`).enum, [...NOTIFICATION_EVENTS]);
});
