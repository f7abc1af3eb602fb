/**
 * openapi.json says what the spec says (../shared/spec/open-integration-service.md), and its simulator
 * choices are the simulator's own constants. Redocly's recommended rules run before this file in
 * `npm run ci -- contract`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import {
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
} from '../../packages/hub-embed-mock/src/api.js';
import { MAX_ID_LENGTH } from '../../packages/hub-embed-mock/src/http.js';
import { NOTIFICATION_EVENTS } from '../../src/server/webhook-events.js';
import { openapi } from './openapi-check.mjs';

/** A parsed JSON document, read by the paths the spec gives. */
type Node = Record<string, any>;

function at(pointer: string): Node {
  let node: Node = openapi;
  for (const part of pointer.slice(2).split('/')) node = node[part.replace(/~1/g, '/')];
  return node.$ref ? at(node.$ref) : node;
}
const operation = (path: string, method: string): Node => openapi.paths[path][method];
const parameter = (path: string, method: string, name: string): Node =>
  operation(path, method)
    .parameters.map((p: Node) => (p.$ref ? at(p.$ref) : p))
    .find((p: Node) => p.name === name);

test('openapi.json is OpenAPI 3.1 with the six endpoints of the spec', () => {
  assert.equal(openapi.openapi, '3.1.0');
  const endpoints = Object.entries(openapi.paths as Node).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
  assert.deepEqual(endpoints.sort(), [
    'GET /points/users/balance',
    'GET /points/users/logs',
    'GET /projects/published-list',
    'GET /projects/published-tags',
    'POST /apikeys/token',
    'POST /points/users/recharge',
  ]);
});

test('the servers are {base_url}/api/v1/hub (the spec) and {base_url}/api/v1/apihub (the real deployment)', () => {
  assert.deepEqual(
    openapi.servers.map((server: Node) => server.url),
    ['{base_url}/api/v1/hub', '{base_url}/api/v1/apihub'],
  );
  for (const server of openapi.servers) assert.ok(server.variables.base_url.default);
});

test('each endpoint needs the authentication of the spec: X-API-Key or Bearer', () => {
  assert.deepEqual(openapi.components.securitySchemes.apiKey, {
    ...openapi.components.securitySchemes.apiKey,
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
  });
  assert.equal(openapi.components.securitySchemes.bearerToken.scheme, 'bearer');
  const scheme = (path: string, method: string) => Object.keys(operation(path, method).security[0]);
  assert.deepEqual(scheme('/apikeys/token', 'post'), ['apiKey']);
  assert.deepEqual(scheme('/projects/published-tags', 'get'), ['bearerToken']);
  assert.deepEqual(scheme('/projects/published-list', 'get'), ['bearerToken']);
  assert.deepEqual(scheme('/points/users/balance', 'get'), ['apiKey']);
  assert.deepEqual(scheme('/points/users/recharge', 'post'), ['apiKey']);
  assert.deepEqual(scheme('/points/users/logs', 'get'), ['apiKey']);
});

test('every answer is the envelope {code, message, data}, and errors carry code and message', () => {
  const success = at('#/components/schemas/SuccessEnvelope');
  assert.deepEqual(success.required, ['code', 'message', 'data']);
  assert.equal(success.properties.code.const, 200);
  assert.deepEqual(at('#/components/schemas/ErrorEnvelope').required, ['code', 'message']);
  for (const methods of Object.values(openapi.paths as Node))
    for (const op of Object.values(methods as Node)) {
      assert.equal(
        op.responses['200'].content['application/json'].schema.allOf[0].$ref,
        '#/components/schemas/SuccessEnvelope',
      );
      for (const key of ['4XX', '5XX']) assert.ok(op.responses[key], `${op.operationId} documents ${key}`);
    }
});

test('the known statuses: 401 for a refused API key at token exchange, 402 for a short pool at recharge', () => {
  assert.match(
    at(operation('/apikeys/token', 'post').responses['401'].$ref).description,
    /invalid, disabled or expired/,
  );
  assert.match(
    at(operation('/points/users/recharge', 'post').responses['402'].$ref).description,
    /pool balance is insufficient/,
  );
});

test('the logs are paged with page (default 1) and page_size (default 20, at most 100), as the simulator pages them', () => {
  const page = parameter('/points/users/logs', 'get', 'page').schema;
  const pageSize = parameter('/points/users/logs', 'get', 'page_size').schema;
  assert.equal(page.default, 1);
  assert.equal(pageSize.default, 20);
  assert.equal(pageSize.maximum, 100);
  assert.equal(pageSize.default, PAGE_SIZE_DEFAULT);
  assert.equal(pageSize.maximum, PAGE_SIZE_MAX);
});

test("what the spec does not show is said, and the simulator's choice is marked as the simulator's", () => {
  const limit = parameter('/projects/published-list', 'get', 'limit').schema;
  assert.match(parameter('/projects/published-list', 'get', 'limit').description, /Default and maximum: not shown/);
  assert.equal(limit.default, undefined, 'the service has no documented default');
  assert.equal(limit['x-simulator'].default, LIST_LIMIT_DEFAULT);
  assert.equal(limit['x-simulator'].maximum, LIST_LIMIT_MAX);
  assert.equal(at('#/components/schemas/ClientUserId')['x-simulator'].maxLength, MAX_ID_LENGTH);
  assert.match(at('#/components/schemas/ErrorEnvelope').description, /not shown/);
  assert.match(at('#/components/schemas/PointsLogRecord').properties.status.description, /not shown/);
  assert.match(at('#/components/schemas/PublishedList').properties.total['x-simulator'].description, /simulator/);
});

test('every field has a type (or a reference) and a description; amounts name their unit', () => {
  const missing: string[] = [];
  for (const [name, schema] of Object.entries(openapi.components.schemas as Node))
    for (const [field, property] of Object.entries((schema.properties ?? {}) as Node)) {
      if (property.$ref) continue;
      if (!property.description) missing.push(`${name}.${field}: no description`);
      if (!property.type && property.const === undefined && field !== 'data') missing.push(`${name}.${field}: no type`);
      if (/_cents$|^balance_after$|^amount$/.test(field) && !property['x-unit'])
        missing.push(`${name}.${field}: no unit`);
    }
  assert.deepEqual(missing, []);
});

test('the webhooks are every notification event, billing_deduct and billing_refund, with their headers', () => {
  assert.deepEqual(Object.keys(openapi.webhooks), [...NOTIFICATION_EVENTS, 'billing_deduct', 'billing_refund']);
  for (const [event, item] of Object.entries(openapi.webhooks as Node)) {
    const post = item.post;
    assert.deepEqual(post.security, [], `${event}: authenticated by the source IP only`);
    assert.deepEqual(
      post.parameters.map((p: Node) => [p.in, p.name, p.required]),
      [
        ['header', 'X-Webhook-Event', true],
        ['header', 'X-Webhook-Timestamp', true],
      ],
    );
    assert.equal(post.parameters[0].schema.const, event);
    assert.ok(post.responses['403'], `${event}: the receiver's 403 for a source IP not allowed`);
  }
});

test('a billing_deduct is answered 200 with ok true or false; the other events with any 2xx', () => {
  const deduct = openapi.webhooks.billing_deduct.post.responses;
  assert.deepEqual(Object.keys(deduct), ['200', '403']);
  const answer = at(deduct['200'].content['application/json'].schema.$ref);
  assert.deepEqual(answer.required, ['ok']);
  assert.equal(answer.properties.ok.type, 'boolean');
  for (const event of [...NOTIFICATION_EVENTS, 'billing_refund']) {
    const responses = openapi.webhooks[event].post.responses;
    assert.match(responses['2XX'].description, /body is not read/);
    assert.equal(responses['2XX'].content, undefined);
  }
});

test('a simulator answer that openapi.json does not describe fails the run loudly (the HUB_MOCK_CONTRACT_CHECK module)', () => {
  const script = `
    import hook from './test/contract/simulator-hook.mjs';
    const wrong = new Response(JSON.stringify({ code: 200, message: 'success', data: { access_token: 1 } }),
      { headers: { 'content-type': 'application/json' } });
    await hook.answer(new Request('http://127.0.0.1/api/v1/hub/apikeys/token', { method: 'POST' }), wrong, '/api/v1/hub');`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.notEqual(run.status, 0);
  assert.match(
    run.stderr,
    /The simulator disagrees with openapi\.json:\n {2}POST \/apikeys\/token answered 200: \/data /,
  );
  assert.match(run.stderr, /expires_in/);
});

test('an answer under another prefix than the one the simulator serves is no operation of the file (a 404 there is right)', () => {
  const script = `
    import hook, { checked } from './test/contract/simulator-hook.mjs';
    const notHere = new Response(JSON.stringify({ code: 404, message: 'No such endpoint.', data: null }),
      { status: 404, headers: { 'content-type': 'application/json' } });
    await hook.answer(new Request('http://127.0.0.1/api/v1/hub/apikeys/token', { method: 'POST' }), notHere, '/api/v1/apihub');
    console.log(checked.answers);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), '0');
});

test('a webhook body that openapi.json does not describe fails the run loudly', () => {
  const script = `
    import hook from './test/contract/simulator-hook.mjs';
    hook.delivery({ event: 'billing_deduct', headers: { 'Content-Type': 'application/json', 'X-Webhook-Event': 'billing_deduct',
      'X-Webhook-Timestamp': '1767225600' }, body: { event: 'billing_deduct', timestamp: '2026-01-01T08:00:00+08:00',
      short_code: 'k3Xp9a', project_icon_url: null, target: { client_user_id: 'user-alice' }, billing: { amount: 150, reason: 'x' } } });`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /webhook billing_deduct: \/billing\/amount must be string/);
});
