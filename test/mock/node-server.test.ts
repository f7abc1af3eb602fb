import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';
import { startSimulator } from '../../packages/hub-embed-mock/src/node.js';
import { useStartedSimulators } from './helpers.js';

const start = useStartedSimulators();

/** Streams `size` bytes with no Content-Length, so only the streaming limit can stop it. */
function streamBody(
  url: string,
  size: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(8192, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('startSimulator', () => {
  it('port 0 picks free ports on loopback and returns baseUrl, formUrl, apiKey, hub and close()', async () => {
    const r = await start();
    expect(r.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.formUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.baseUrl).not.toBe(r.formUrl);
    expect(r.apiKey).toBe(r.hub.apiKey);
  });

  it('serves the open API and the form site over real HTTP', async () => {
    const r = await start();
    const tok = await fetch(`${r.baseUrl}/api/v1/hub/apikeys/token`, {
      method: 'POST',
      headers: { 'X-API-Key': r.apiKey, 'Content-Type': 'application/json' },
      body: '{"client_user_id":"user-alice"}',
    });
    const token = (await tok.json()).data.access_token;
    const list = await fetch(`${r.baseUrl}/api/v1/hub/projects/published-list?limit=3`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await list.json()).data.list).toHaveLength(3);
    const page = await fetch(
      `${r.formUrl}/${encodeURIComponent('promo 2026/秋 ✨?#%+')}?token=${encodeURIComponent(token)}`,
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Autumn Promo');
    const icon = await fetch(`${r.baseUrl}/static/icons/logistics.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await icon.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('\x89PNG');
  });

  it('enforces the 64 KB body limit while streaming (413, state unchanged)', async () => {
    const r = await start();
    const before = JSON.stringify(r.hub.snapshot());
    const res = await streamBody(`${r.baseUrl}/api/v1/hub/points/users/recharge`, 1024 * 1024, {
      'X-API-Key': r.apiKey,
      'Content-Type': 'application/json',
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 413, data: null });
    expect(JSON.stringify(r.hub.snapshot())).toBe(before);
  });

  it('dropRate destroys the connection without an answer', async () => {
    const r = await start({ dropRate: 1 });
    await expect(fetch(`${r.baseUrl}/api/v1/hub/projects/published-tags`)).rejects.toThrow();
  });

  it('200 concurrent recharges over HTTP against a pool covering 150: exactly 150 succeed, 50 get 402', async () => {
    const seed = structuredClone(defaultSeed);
    seed.accounts[0]!.pool_cents = 150 * 250;
    const r = await start({ seed });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${r.baseUrl}/api/v1/hub/points/users/recharge`, {
          method: 'POST',
          headers: { 'X-API-Key': r.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ client_user_id: `u${i % 7}`, amount_cents: 250, external_order_id: `ord-${i}` }),
        }).then((res) => res.status),
      ),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(150);
    expect(results.filter((s) => s === 402)).toHaveLength(50);
    const ledger = r.hub.ledger();
    expect(ledger.poolCents).toBe(0);
    expect(ledger.balanced).toBe(true);
    // 200 real HTTP round trips: on a shared, loaded machine they can take longer than the 5 s default.
  }, 20_000);

  it('close() stops both servers', async () => {
    const r = await startSimulator();
    await r.close();
    await expect(fetch(`${r.baseUrl}/api/v1/hub/projects/published-tags`)).rejects.toThrow();
    await expect(fetch(`${r.formUrl}/x`)).rejects.toThrow();
  });

  it('an invalid seed fails start-up with a clear error and leaves no server behind', async () => {
    await expect(startSimulator({ seed: { accounts: [], tables: 'x' } as never })).rejects.toThrow(/\$\.tables/);
  });
});
