/**
 * One rule for a token answer's `expires_in`: openapi.json's schema accepts exactly the values the server
 * client accepts. Each value is judged twice, by Ajv against the file's schema and by createServerClient's
 * exchangeToken reading it from a token answer; any value the two judge differently fails. fast-check draws
 * the values around the bounds and across every JSON type; FAST_CHECK_SEED=<seed> replays a run.
 *   npm run ci -- contract (this file: node --import ./scripts/ts-register.mjs --test test/contract/expires-in.test.ts)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { createServerClient } from '../../src/server/server-client.js';
import { openapi } from './openapi-check.mjs';

const SEED = process.env.FAST_CHECK_SEED === undefined ? undefined : Number(process.env.FAST_CHECK_SEED);
const THIRTY_DAYS = 30 * 24 * 60 * 60;

const ajv = new Ajv2020({ strict: false });
ajv.addSchema(openapi, 'openapi.json');
const schemaAccepts = ajv.getSchema('openapi.json#/components/schemas/AccessToken/properties/expires_in')!;

/** Whether the server client takes `value` as a token answer's expires_in, as it arrives in JSON. */
async function clientAccepts(value: unknown): Promise<boolean> {
  const text = JSON.stringify({ code: 200, message: 'ok', data: { access_token: 'tok-1', expires_in: value } });
  const client = createServerClient({
    apiKey: 'sk-contract',
    baseUrl: 'https://hub.example.com',
    fetch: (async () => new Response(text, { status: 200 })) as typeof fetch,
  });
  try {
    await client.exchangeToken('user-1');
    return true;
  } catch {
    return false;
  }
}

async function judgedAlike(value: unknown): Promise<void> {
  // What the wire carries: JSON has no NaN or Infinity (they arrive as null).
  const wire: unknown = JSON.parse(JSON.stringify({ value }) ?? '{}').value;
  const bySchema = schemaAccepts(wire) === true;
  assert.equal(await clientAccepts(wire), bySchema, `expires_in ${JSON.stringify(wire)}: schema says ${bySchema}`);
}

test('the schema and the server client take the same expires_in at and around the bounds', async () => {
  for (const value of [1, 0.5, Number.MIN_VALUE, 0, -0, -1, 7200, THIRTY_DAYS, THIRTY_DAYS + 0.001, THIRTY_DAYS + 1])
    await judgedAlike(value);
  for (const value of ['7200', null, true, [], {}, 1e308]) await judgedAlike(value);
});

test('the schema and the server client take the same expires_in, for any JSON value drawn', async () => {
  const near = fc.oneof(
    fc.integer({ min: -10, max: THIRTY_DAYS + 10 }),
    fc.double({ min: -1, max: THIRTY_DAYS * 2, noNaN: true }),
    fc.double({ noNaN: true }),
    fc.jsonValue(),
  );
  await fc.assert(fc.asyncProperty(near, judgedAlike), { numRuns: 400, ...(SEED === undefined ? {} : { seed: SEED }) });
});

test('contract-valid token answers are taken: 200 drawn from the schema all pass the client', async () => {
  // Valid by the file: a number above 0 and at most 30 days. The client must take every one.
  const valid = fc.double({ min: Number.MIN_VALUE, max: THIRTY_DAYS, noNaN: true });
  await fc.assert(
    fc.asyncProperty(valid, async (value) => {
      assert.equal(schemaAccepts(value), true);
      assert.equal(await clientAccepts(value), true, `the client refused expires_in ${value}`);
    }),
    { numRuns: 200, ...(SEED === undefined ? {} : { seed: SEED }) },
  );
});
