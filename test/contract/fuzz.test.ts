/**
 * A schema-driven fuzz run against the simulator over HTTP: requests generated from openapi.json (its
 * schemas, narrowed by the simulator's `x-simulator` choices), valid ones and ones broken in one place.
 * Valid requests get a documented answer (200, or the documented refusal their state calls for: 402, 409);
 * broken ones get a 4xx error in the envelope; no request gets a 5xx, an undocumented answer, or no answer
 * within 10 s. Bounded: FUZZ_RUNS (default 40) requests per operation and kind. fast-check prints the seed
 * of a failure; FUZZ_SEED=<seed> replays it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';
import { answerProblems, openapi } from './openapi-check.mjs';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  'x-simulator'?: Schema;
};
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security: Record<string, unknown>[];
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const TIMEOUT_MS = 10_000;

function resolve<T>(node: T | { $ref: string }): T {
  if (typeof node !== 'object' || node === null || !('$ref' in node)) return node as T;
  let target: unknown = openapi;
  for (const part of node.$ref.slice(2).split('/')) target = (target as Record<string, unknown>)[part];
  return resolve(target as T);
}

/** The schema as the simulator takes it: the file's, with its `x-simulator` keywords on top. */
function effective(schema: Schema): Schema {
  const resolved = resolve<Schema>(schema);
  const narrowing = Object.fromEntries(
    Object.entries(resolved['x-simulator'] ?? {}).filter(([key]) => key !== 'description'),
  );
  return { ...resolved, ...narrowing };
}

/** Values a schema accepts (as the simulator takes it). Lengths count UTF-16 units, as `x-simulator` says. */
function valid(schema: Schema): fc.Arbitrary<unknown> {
  const s = effective(schema);
  if (s.type === 'integer')
    return fc.integer({ min: s.minimum ?? -1_000_000, max: Math.min(s.maximum ?? 1e12, Number.MAX_SAFE_INTEGER) });
  if (s.type === 'string') {
    const pattern = s.pattern === undefined ? undefined : new RegExp(s.pattern, 'u');
    return fc
      .string({ unit: 'grapheme', minLength: s.minLength ?? 0, maxLength: s.maxLength ?? 40 })
      .filter((text) => text.length >= (s.minLength ?? 0) && text.length <= (s.maxLength ?? Infinity))
      .filter((text) => !pattern || pattern.test(text));
  }
  if (s.type === 'object') {
    const properties = Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, p]) => [name, valid(p)]));
    return fc.record(properties, { requiredKeys: s.required ?? [] });
  }
  throw new Error(`no generator for ${JSON.stringify(s)}`);
}

/** Values of the wrong shape for a schema: out of its bounds, of another type, or too long. */
function broken(schema: Schema): fc.Arbitrary<unknown> {
  const s = effective(schema);
  const choices: fc.Arbitrary<unknown>[] = [];
  if (s.type === 'integer') {
    if (s.minimum !== undefined) choices.push(fc.integer({ min: -1_000_000, max: s.minimum - 1 }));
    if (s.maximum !== undefined) choices.push(fc.integer({ min: s.maximum + 1, max: s.maximum * 10 + 10 }));
    choices.push(fc.double({ min: 0.01, max: 1000, noNaN: true }).filter((n) => !Number.isInteger(n)));
    choices.push(fc.constantFrom('', 'ten', '1e3', '-', '0x10'));
  }
  if (s.type === 'string') {
    if (s.maxLength !== undefined) choices.push(fc.constant('x'.repeat(s.maxLength + 1)));
    if (s.minLength !== undefined && s.minLength > 0) choices.push(fc.constant(''));
    if (s.pattern !== undefined) choices.push(fc.constantFrom(' ', '\t \n'));
  }
  return fc.oneof(...choices);
}

let mock: RunningSimulator;
let bearer: string;

async function send(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const response = await fetch(mock.apiUrl + path, {
    method,
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const bodyText = await response.text();
  const fullPath = new URL(mock.apiUrl + path).pathname;
  return {
    status: response.status,
    bodyText,
    problems: answerProblems({
      method,
      path: fullPath,
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText,
    }),
  };
}

const auth = (operation: Operation): Record<string, string> =>
  'apiKey' in operation.security[0]! ? { 'x-api-key': mock.apiKey } : { authorization: `Bearer ${bearer}` };

/** Makes a user known to the points endpoints, as a token exchange does. */
async function knownUser(clientUserId: unknown): Promise<void> {
  if (typeof clientUserId !== 'string') return;
  await send('POST', '/apikeys/token', {
    headers: { 'x-api-key': mock.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ client_user_id: clientUserId }),
  });
}

interface Call {
  query: Record<string, unknown>;
  body?: unknown;
}

/** One request to an operation: its query parameters and JSON body, from `pick(schema)` per part. */
function calls(operation: Operation, pick: (schema: Schema) => fc.Arbitrary<unknown>): fc.Arbitrary<Call> {
  const parameters = (operation.parameters ?? []).map((p) => resolve<Parameter>(p));
  const query = fc.record(Object.fromEntries(parameters.map((p) => [p.name, pick(p.schema)])), {
    requiredKeys: parameters.filter((p) => p.required).map((p) => p.name),
  });
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  return bodySchema ? fc.record({ query, body: pick(bodySchema) }) : fc.record({ query });
}

/** A valid call with one part broken: a required part left out, or one value of the wrong shape. */
function brokenCalls(operation: Operation): fc.Arbitrary<Call> {
  const parameters = (operation.parameters ?? []).map((p) => resolve<Parameter>(p));
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const body = bodySchema ? effective(bodySchema) : undefined;
  const breaks: fc.Arbitrary<(call: Call) => Call>[] = [];
  for (const p of parameters) {
    if (p.required)
      breaks.push(fc.constant((call: Call) => ({ ...call, query: { ...call.query, [p.name]: undefined } })));
    const wrong = broken(p.schema);
    breaks.push(wrong.map((value) => (call: Call) => ({ ...call, query: { ...call.query, [p.name]: value } })));
  }
  for (const [name, property] of Object.entries(body?.properties ?? {})) {
    const replace = (value: unknown) => (call: Call) => ({
      ...call,
      body: { ...(call.body as object), [name]: value },
    });
    if (body?.required?.includes(name)) breaks.push(fc.constant(replace(undefined)));
    breaks.push(broken(property).map(replace));
  }
  if (body)
    breaks.push(
      fc.constantFrom<unknown>([], 'text', 7, null).map((value) => (call: Call) => ({ ...call, body: value })),
    );
  return fc.tuple(calls(operation, valid), fc.oneof(...breaks)).map(([call, breakIt]) => breakIt(call));
}

function requestOf(route: string, operation: Operation, call: Call, headers = auth(operation)) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query)) if (value !== undefined) query.set(name, String(value));
  const path = query.size > 0 ? `${route}?${query}` : route;
  if (!('body' in call)) return { path, init: { headers } };
  return {
    path,
    init: { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(call.body) },
  };
}

const operations = Object.entries(openapi.paths as Record<string, Record<string, Operation>>).flatMap(
  ([route, methods]) => Object.entries(methods).map(([method, operation]) => ({ route, method, operation })),
);

before(async () => {
  mock = await startSimulator();
  const answer = await fetch(`${mock.apiUrl}/apikeys/token`, {
    method: 'POST',
    headers: { 'x-api-key': mock.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ client_user_id: 'fuzz-user' }),
  });
  bearer = ((await answer.json()) as { data: { access_token: string } }).data.access_token;
});
after(() => mock.close());

const options = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };

test('the fuzz run covers the six operations of openapi.json', () => {
  assert.equal(operations.length, 6);
});

for (const { route, method, operation } of operations) {
  const name = `${method.toUpperCase()} ${route}`;

  test(`valid requests generated from openapi.json get a documented answer: ${name}`, async () => {
    await fc.assert(
      fc.asyncProperty(calls(operation, valid), async (call) => {
        await knownUser(call.query.client_user_id);
        const { path, init } = requestOf(route, operation, call);
        const answer = await send(method.toUpperCase(), path, init);
        assert.deepEqual(answer.problems, [], answer.bodyText);
        // A valid request's refusals are the state's, and documented: the pool is short, the order repeated.
        const allowed = route === '/points/users/recharge' ? [200, 402, 409] : [200];
        assert.ok(allowed.includes(answer.status), `${name} answered ${answer.status}: ${answer.bodyText}`);
      }),
      options,
    );
  });

  test(`requests broken in one place get a 4xx error in the envelope: ${name}`, async () => {
    const breakable = (operation.parameters ?? []).length > 0 || operation.requestBody !== undefined;
    const broken = breakable ? brokenCalls(operation) : calls(operation, valid);
    // Without any input to break (published-tags), the credentials are what is broken.
    const headers = breakable ? auth(operation) : { authorization: 'Bearer not-a-token' };
    await fc.assert(
      fc.asyncProperty(broken, async (call) => {
        await knownUser(call.query.client_user_id);
        const { path, init } = requestOf(route, operation, call, headers);
        const answer = await send(method.toUpperCase(), path, init);
        assert.deepEqual(answer.problems, [], answer.bodyText);
        assert.ok(answer.status >= 400 && answer.status < 500, `${name} answered ${answer.status}: ${answer.bodyText}`);
        const envelope = JSON.parse(answer.bodyText) as { code: unknown; message: unknown };
        assert.equal(envelope.code, answer.status);
        assert.equal(typeof envelope.message, 'string');
      }),
      options,
    );
  });
}

test('requests without credentials, or with a wrong Content-Type, get a 4xx error in the envelope', async () => {
  for (const { route, method, operation } of operations) {
    const { path, init } = requestOf(
      route,
      operation,
      fc.sample(calls(operation, valid), { numRuns: 1, seed: 1 })[0]!,
      {},
    );
    const answer = await send(method.toUpperCase(), path, init);
    assert.deepEqual(answer.problems, []);
    assert.equal(answer.status, 401, `${method} ${route} without credentials`);
    if (!operation.requestBody) continue;
    const plain = await send(method.toUpperCase(), route, {
      headers: { ...auth(operation), 'content-type': 'text/plain' },
      body: '{}',
    });
    assert.deepEqual(plain.problems, []);
    assert.equal(plain.status, 415);
  }
});
