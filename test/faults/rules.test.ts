import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectedConsoleError, tokenRequestBound } from './rules.js';

test('token bound: one request per quarter ttl (rounded to whole seconds), plus the first, opens, failures and 401s', () => {
  // ttl 5 s: the widget keeps a token at least floor(5/2)/2 = 1 s, so 120 s allow 120 + 1.
  assert.equal(tokenRequestBound({ elapsedMs: 120_000, ttlSeconds: 5, opens: 0, failed: 0, unauthorized: 0 }), 121);
  assert.equal(tokenRequestBound({ elapsedMs: 120_000, ttlSeconds: 5, opens: 10, failed: 3, unauthorized: 2 }), 136);
  assert.equal(tokenRequestBound({ elapsedMs: 60_000, ttlSeconds: 7200, opens: 0, failed: 0, unauthorized: 0 }), 2);
  assert.throws(
    () => tokenRequestBound({ elapsedMs: 1, ttlSeconds: 1, opens: 0, failed: 0, unauthorized: 0 }),
    /at least 2/,
  );
});

test('console filter: only failed loads on the API origin or the token endpoint are expected', () => {
  const where = { apiOrigin: 'http://127.0.0.1:4010', tokenUrl: 'http://127.0.0.1:5000/api/hub-token' };
  const failed = 'Failed to load resource: the server responded with a status of 500 (Internal Server Error)';
  assert.equal(
    expectedConsoleError({ text: failed, url: 'http://127.0.0.1:4010/api/v1/hub/projects/published-list' }, where),
    true,
  );
  assert.equal(expectedConsoleError({ text: failed, url: 'http://127.0.0.1:5000/api/hub-token' }, where), true);
  assert.equal(
    expectedConsoleError({ text: failed, url: 'http://127.0.0.1:40100/x' }, where),
    false,
    'another port is another origin',
  );
  assert.equal(expectedConsoleError({ text: 'unhandledrejection: boom', url: 'http://127.0.0.1:4010/' }, where), false);
  assert.equal(expectedConsoleError({ text: failed, url: 'http://127.0.0.1:5000/other' }, where), false);
});
