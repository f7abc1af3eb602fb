/**
 * Certify judges a receiver's answers by openapi.json's webhook responses (packages/hub-embed-mock/src/documented-answers.ts,
 * which runs without a validator library): it agrees with Ajv on the file, answer by answer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undocumentedAnswer } from '../../packages/hub-embed-mock/src/documented-answers.js';
import { openapi, receiverAnswerProblems } from './openapi-check.mjs';

const BODIES = [
  '{"ok":true}',
  '{"ok":false}',
  '{"ok":true,"balance":5}',
  '{"ok":"true"}',
  '{"ok":1}',
  '{}',
  '[]',
  'null',
  '',
  'ok',
  '{"ok":null}',
];
const STATUSES = [200, 201, 204, 299, 301, 400, 402, 403, 404, 500, 502];

test('certify judges each answer to a delivery as Ajv judges it against openapi.json', () => {
  let documented = 0;
  for (const event of Object.keys(openapi.webhooks))
    for (const status of STATUSES)
      for (const body of BODIES) {
        const ajv = receiverAnswerProblems({ event, status, bodyText: body });
        const certify = undocumentedAnswer(event, status, body);
        assert.equal(
          certify === undefined,
          ajv.length === 0,
          `${event} ${status} ${body}: certify ${certify}; Ajv ${ajv.join('; ')}`,
        );
        if (certify === undefined) documented++;
      }
  assert.ok(documented > 0);
});

test('a billing_deduct is answered 200 with ok true or false; any other answer is named', () => {
  assert.equal(undocumentedAnswer('billing_deduct', 200, '{"ok":false}'), undefined);
  assert.equal(
    undocumentedAnswer('billing_deduct', 402, '{"ok":false}'),
    'answered 402; openapi.json documents 200, 403 for billing_deduct',
  );
  assert.equal(
    undocumentedAnswer('billing_deduct', 200, '{"ok":"yes"}'),
    'the 200 answer to billing_deduct is not as openapi.json documents it: the body.ok is "yes", not boolean',
  );
  assert.equal(
    undocumentedAnswer('billing_deduct', 200, '{}'),
    'the 200 answer to billing_deduct is not as openapi.json documents it: the body has no ok',
  );
  assert.equal(undocumentedAnswer('order_matched', 204, ''), undefined, 'any 2xx; the body is not read');
  assert.match(undocumentedAnswer('order_matched', undefined, '')!, /^no answer/);
});
