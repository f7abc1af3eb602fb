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

test("console filter: the widget's own report of a fault's error is expected, of another error not", () => {
  const where = { apiOrigin: 'http://127.0.0.1:4010', tokenUrl: 'http://127.0.0.1:5000/api/hub-token' };
  const url = 'http://127.0.0.1:5000/hub-embed.iife.js';
  const report = (message: string) => ({ text: `hub-embed: ${message} HubError: ${message}\n    at x`, url });
  assert.equal(
    expectedConsoleError(report('published-list answered 500 (Injected fault); check it or retry.'), where),
    true,
  );
  assert.equal(
    expectedConsoleError(report('Token endpoint /api/hub-token answered 502; check it or retry.'), where),
    true,
  );
  assert.equal(expectedConsoleError(report('http://127.0.0.1:4010/x unreachable; check it.'), where), true);
  assert.equal(expectedConsoleError(report('published-tags timed out; retry.'), where), true);
  assert.equal(expectedConsoleError(report('published-list: no list; check base-url.'), where), false);
  assert.equal(expectedConsoleError(report('Set base-url to an http(s) URL.'), where), false);
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
