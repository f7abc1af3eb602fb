// Checks what the simulator says against openapi.json with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses):
// its answers on the open API and the webhook requests it sends. Plain JavaScript so that any process can
// load it: the tests, the simulator from the sources, and the hub-embed-mock bin from dist/ (simulator-hook.mjs).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const OPENAPI_FILE = new URL('../../openapi.json', import.meta.url);
/** @type {any} */
export const openapi = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));

/** The open API's root in the simulator: `/api/v<n>/<segment>`, the spec's, the real deployment's or another. */
const API_ROOT = /^\/api\/v\d+\/[^/]+/;

/**
 * The file as the simulator must meet it: its schemas stay tolerant of fields they do not name (the service
 * may send more), but the simulator sends only what the file describes, so every object schema that lists
 * its properties (or combines others with allOf) gets `unevaluatedProperties: false` here. Not the schemas
 * that are parts of an allOf: the schema around them judges what is left over.
 */
function strictCopy(document) {
  const copy = structuredClone(document);
  const parts = new Set();
  const objects = [];
  const visit = (node) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node.allOf)) for (const part of node.allOf) parts.add(part.$ref ?? part);
    if (node.properties || node.allOf) objects.push(node);
    Object.values(node).forEach(visit);
  };
  visit(copy);
  for (const [name, schema] of Object.entries(copy.components.schemas))
    if (parts.has(`#/components/schemas/${name}`)) parts.add(schema);
  for (const schema of objects)
    if (!parts.has(schema) && schema.additionalProperties === undefined) schema.unevaluatedProperties = false;
  return copy;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(openapi, 'openapi.json');
ajv.addSchema(strictCopy(openapi), 'strict.json');

/** The JSON pointer of a path's operation, e.g. #/paths/~1points~1users~1logs/get. */
const pointer = (...parts) =>
  `#/${parts.map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

function validate(documentId, at, value) {
  const check = ajv.getSchema(`${documentId}${at}`);
  if (!check) throw new Error(`openapi.json has no schema at ${at}`);
  if (check(value)) return [];
  return (check.errors ?? []).map(
    (error) => `${error.instancePath || '(body)'} ${error.message} (${error.schemaPath})`,
  );
}

/** The operation of openapi.json that a request to `path` (under any API root) with `method` reaches, if any. */
export function operationOf(method, path) {
  const root = API_ROOT.exec(path);
  if (!root) return undefined;
  const route = path.slice(root[0].length);
  const operation = openapi.paths[route]?.[method.toLowerCase()];
  return operation ? { route, method: method.toLowerCase(), operation } : undefined;
}

/** The response object that documents `status`: its own entry, else its class (4XX, 5XX), else default. */
function responseKeyOf(responses, status) {
  return [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in responses);
}

/**
 * Problems with one answer of the simulator's open API, or [] when openapi.json describes it: a status the
 * file lists for the operation (x-simulator-statuses), a JSON body, and that body valid against the
 * response's schema with nothing undescribed in it. Requests to no operation of the file are not its business.
 */
export function answerProblems({ method, path, status, contentType, bodyText }) {
  const found = operationOf(method, path);
  if (!found) return [];
  const { route, operation } = found;
  const where = `${method} ${route} answered ${status}`;
  const statuses = operation['x-simulator-statuses'];
  if (!statuses.includes(status)) return [`${where}: openapi.json lists ${statuses.join(', ')} for the simulator`];
  const key = responseKeyOf(operation.responses, status);
  if (!key) return [`${where}: openapi.json documents no such answer`];
  if (!/^application\/json\b/.test(contentType ?? '')) return [`${where}: Content-Type ${contentType}, not JSON`];
  let body;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return [`${where}: the body is not JSON`];
  }
  const target = answerSchemaAt(route, found.method, key);
  return validate('strict.json#', target, body).map((problem) => `${where}: ${problem}`);
}

/** Where the JSON schema of an operation's documented answer is (a response may be a reference). */
function answerSchemaAt(route, method, key) {
  const reference = openapi.paths[route][method].responses[key].$ref;
  const responseAt = reference ? reference.slice(1) : pointer('paths', route, method, 'responses', key).slice(1);
  return `${responseAt}/content/application~1json/schema`;
}

/** Problems with one webhook request the simulator sent (headers as sent, body as parsed), or []. */
export function webhookProblems({ event, headers, body }) {
  const webhook = openapi.webhooks[event]?.post;
  if (!webhook) return [`webhook ${event}: not an event of openapi.json`];
  const problems = [];
  const sent = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  webhook.parameters.forEach((header, index) => {
    const value = sent.get(header.name.toLowerCase());
    if (value === undefined) {
      if (header.required) problems.push(`header ${header.name} is missing`);
      return;
    }
    const at = `${pointer('webhooks', event, 'post', 'parameters', index).slice(1)}/schema`;
    problems.push(...validate('openapi.json#', at, value).map((problem) => `header ${header.name}: ${problem}`));
  });
  if (!/^application\/json\b/.test(sent.get('content-type') ?? ''))
    problems.push('Content-Type is not application/json');
  const at = `${pointer('webhooks', event, 'post', 'requestBody').slice(1)}/content/application~1json/schema`;
  problems.push(...validate('openapi.json#', at, body));
  return problems.map((problem) => `webhook ${event}: ${problem}`);
}

/** Problems with a receiver's answer to a webhook, against the file's responses for that event, or []. */
export function receiverAnswerProblems({ event, status, bodyText }) {
  const webhook = openapi.webhooks[event]?.post;
  if (!webhook) return [`webhook ${event}: not an event of openapi.json`];
  const key = responseKeyOf(webhook.responses, status);
  if (!key) return [`webhook ${event}: the answer ${status} is not one openapi.json documents`];
  const content = webhook.responses[key].content;
  if (!content) return [];
  let body;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return [`webhook ${event}: the answer's body is not JSON`];
  }
  const at = `${pointer('webhooks', event, 'post', 'responses', key).slice(1)}/content/application~1json/schema`;
  return validate('openapi.json#', at, body).map((problem) => `webhook ${event} answer ${status}: ${problem}`);
}

// Every validator is compiled now, when the module loads (before a simulator serves), not at its first
// use: a compile holds the event loop for a moment, which a suite timing a burst of requests would feel.
for (const [route, methods] of Object.entries(openapi.paths))
  for (const [method, operation] of Object.entries(methods))
    for (const key of Object.keys(operation.responses))
      ajv.getSchema(`strict.json#${answerSchemaAt(route, method, key)}`);
for (const event of Object.keys(openapi.webhooks)) {
  const at = pointer('webhooks', event, 'post').slice(1);
  openapi.webhooks[event].post.parameters.forEach((_, index) =>
    ajv.getSchema(`openapi.json#${at}/parameters/${index}/schema`),
  );
  ajv.getSchema(`openapi.json#${at}/requestBody/content/application~1json/schema`);
}
