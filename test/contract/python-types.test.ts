/**
 * examples/python's webhook types (hub_types.py, generated from openapi.json by the quicktype command in
 * docs/openapi.md) still say what the file says: their fields are the schemas' fields, every webhook body
 * the simulator sends parses with them, and a body Ajv refuses for a missing or mistyped field is refused
 * by examples/python/webhook_shape.py too. Run with Debian's /usr/bin/python3, as the certify lane runs
 * the receiver.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { createSimulator } from '../../packages/hub-embed-mock/src/index.js';
import { openapi, webhookProblems } from './openapi-check.mjs';

const PYTHON = '/usr/bin/python3';

/** Runs `code` beside the examples' modules with `input` as JSON on stdin; its stdout parsed as JSON. */
function python(code: string, input: unknown): unknown {
  const run = spawnSync(PYTHON, ['-c', code], {
    cwd: 'examples/python',
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

type Schema = { $ref?: string; properties?: Record<string, Schema>; allOf?: Schema[] };
const schema = (name: string): Schema => openapi.components.schemas[name];
const fieldsOf = (value: Schema): string[] => {
  const resolved = value.$ref ? schema(value.$ref.split('/').pop()!) : value;
  return [...new Set([...(resolved.allOf ?? []).flatMap(fieldsOf), ...Object.keys(resolved.properties ?? {})])].sort();
};

test("hub_types.py's classes have the fields of openapi.json's schemas", () => {
  const classes = python(
    `import dataclasses, json, hub_types
print(json.dumps({name: sorted(f.name for f in dataclasses.fields(cls)) for name, cls in vars(hub_types).items()
  if dataclasses.is_dataclass(cls) and cls.__module__ == 'hub_types'}))`,
    null,
  ) as Record<string, string[]>;
  const base = schema('WebhookEventBase').properties!;
  assert.deepEqual(classes, {
    NotificationEvent: fieldsOf(schema('NotificationEvent')),
    BillingEvent: fieldsOf(schema('BillingEvent')),
    BillingDeductAnswer: fieldsOf(schema('BillingDeductAnswer')),
    Notification: fieldsOf(schema('NotificationEvent').properties!.notification!),
    Billing: fieldsOf(schema('BillingEvent').properties!.billing!),
    Target: fieldsOf(base.target!),
  });
});

test('every webhook body the simulator sends has the shape webhook_shape.py checks, and a broken one does not', async () => {
  const hub = createSimulator({ webhookSender: async () => ({ kind: 'response', status: 200, body: '{"ok":true}' }) });
  hub.setWebhooks([{ notification_url: 'http://127.0.0.1:9/n', billing_url: 'http://127.0.0.1:9/b' }]);
  const bodies: unknown[] = [];
  for (const event of Object.keys(openapi.webhooks)) {
    const { deliveries } = await hub.trigger({ event });
    bodies.push(...deliveries.map((delivery) => delivery.body));
  }
  assert.equal(bodies.length, Object.keys(openapi.webhooks).length);
  const broken = bodies.flatMap((body) => {
    const fields = body as Record<string, unknown>;
    const { short_code: _left, ...withoutCode } = fields;
    const part = 'billing' in fields ? 'billing' : 'notification';
    return [
      withoutCode,
      { ...fields, target: 'user-alice' },
      { ...fields, [part]: { ...(fields[part] as object), title: 1, amount: 1 } },
    ];
  });
  for (const body of broken)
    assert.notDeepEqual(webhookProblems({ event: (body as { event: string }).event, headers: {}, body }).length, 0);
  const verdicts = python(
    `import json, sys
from webhook_shape import has_event_shape
print(json.dumps([has_event_shape(body) for body in json.load(sys.stdin)]))`,
    [...bodies, ...broken],
  );
  assert.deepEqual(verdicts, [...bodies.map(() => true), ...broken.map(() => false)]);
});
