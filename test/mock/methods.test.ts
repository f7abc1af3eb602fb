import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';
import { rawRequest } from './raw-http.js';

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

describe('methods a Web Request refuses', () => {
  it('TRACE gets 405 with Allow on the API site and the form site, never 500, and the server keeps serving', async () => {
    const mock = await startSimulator();
    running.push(mock);
    for (const [url, allow] of [
      [mock.baseUrl, 'GET, HEAD, POST, PUT, OPTIONS'],
      [mock.formUrl, 'GET, HEAD, POST'],
    ] as const) {
      const hostHeader = new URL(url).host;
      const answer = await rawRequest(url, `TRACE /api/v1/hub/points/balance HTTP/1.1\nHost: ${hostHeader}`);
      expect(answer.status).toBe(405);
      expect(answer.text).toMatch(new RegExp(`\\r\\nallow: ${allow}\\r\\n`, 'i'));
      expect(answer.text).toMatch(/Method TRACE is not allowed/);
    }
    // With a body too (TRACE must not have one; the server refuses before reading it).
    const withBody = await rawRequest(
      mock.baseUrl,
      `TRACE / HTTP/1.1\nHost: ${new URL(mock.baseUrl).host}\nContent-Length: 5`,
      'hello',
    );
    expect(withBody.status).toBe(405);
    const after = await rawRequest(mock.baseUrl, `GET /console/state HTTP/1.1\nHost: ${new URL(mock.baseUrl).host}`);
    expect(after.status).toBe(200);
  });

  it('an extension method a Web Request accepts (PROPFIND) is routed like any other: 405 on a known path, never 500', async () => {
    const mock = await startSimulator();
    running.push(mock);
    const hostHeader = new URL(mock.baseUrl).host;
    const propfind = await rawRequest(mock.baseUrl, `PROPFIND /console/state HTTP/1.1\nHost: ${hostHeader}`);
    expect(propfind.status).toBe(405);
    expect(propfind.text).toMatch(/Method PROPFIND is not allowed here; use GET/);
  });
});
