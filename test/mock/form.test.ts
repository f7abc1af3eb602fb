import { describe, expect, it } from 'vitest';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';
import type { Simulator, SimulatorOptions, MockSeed } from '../../packages/hub-embed-mock/src/types.js';
import { P, call, newHub, stateOf, tokenFor } from './helpers.js';

const WEIRD = 'promo 2026/秋 ✨?#%+';

function seedWith(
  extra: Partial<MockSeed['tables'][number]>,
  balance = 5000,
  webhooks: MockSeed['accounts'][number]['webhooks'] = [],
): MockSeed {
  const seed = structuredClone(defaultSeed);
  seed.tables.push({
    project_id: 9999,
    short_code: 'evil',
    name: 'n',
    industry: 'i',
    icon: 'x',
    tags: [],
    type: 'A',
    published: true,
    price_cents: 1205,
    ...extra,
  });
  seed.accounts[0]!.users = [{ client_user_id: 'user-alice', balance_cents: balance }];
  seed.accounts[0]!.webhooks = webhooks;
  return seed;
}

async function open(hub: ReturnType<typeof newHub>, code: string, token: string | null) {
  const q = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  const res = await hub.handleForm(new Request(`${hub.formUrl}/${encodeURIComponent(code)}${q}`));
  return { status: res.status, html: await res.text(), headers: res.headers };
}

async function post(
  hub: ReturnType<typeof newHub>,
  code: string,
  fields: Record<string, string>,
  json = true,
  contentType = 'application/x-www-form-urlencoded',
) {
  const res = await hub.handleForm(
    new Request(`${hub.formUrl}/${encodeURIComponent(code)}`, {
      method: 'POST',
      headers: { 'Content-Type': contentType, ...(json ? { Accept: 'application/json' } : {}) },
      body: new URLSearchParams(fields).toString(),
    }),
  );
  const text = await res.text();
  return { status: res.status, text, body: json ? JSON.parse(text) : undefined };
}

function billingFetch(answer: () => Response | Promise<Response>, seen: Request[] = []): SimulatorOptions['fetch'] {
  return async (input, init) => {
    seen.push(new Request(input, init));
    return answer();
  };
}

/** A user's points log through the open API, as the developer's server reads it. */
const userLogs = (hub: Simulator, clientUserId: string) =>
  call(hub, 'GET', `${P}/points/users/logs`, { key: hub.apiKey, query: { client_user_id: clientUserId } });

describe('form site: GET /<short_code>?token=', () => {
  it('serves a real HTML page with the table and the user', async () => {
    const hub = newHub();
    const page = await open(hub, 'k3Xp9a', await tokenFor(hub, 'user-alice'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.html).toMatch(/^<!doctype html>/);
    expect(page.html).toContain('<h1>钢结构安装</h1>');
    expect(page.html).toContain('<strong id="user">user-alice</strong>');
    expect(page.html).toContain('<strong id="balance">¥50.00 (5,000 points)</strong>');
    expect(page.html).toContain('Pay ¥5.00');
  });

  it('has a page CSP of its own that forbids inline script and foreign connections', async () => {
    const hub = newHub();
    const page = await open(hub, 'k3Xp9a', await tokenFor(hub, 'u'));
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(page.html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.html).not.toMatch(/\son\w+=/);
  });

  it('the short code is URL-decoded from the path (space, /, ?, #, %, +, CJK, emoji)', async () => {
    const hub = newHub();
    const page = await open(hub, WEIRD, await tokenFor(hub, 'u'));
    expect(page.status).toBe(200);
    expect(page.html).toContain('秋季促销 Autumn Promo 🍂');
    expect(page.html).toContain(`data-short-code="promo 2026/秋 ✨?#%+"`);
    expect(page.html).toContain(`action="/${encodeURIComponent(WEIRD).replace(/&/g, '&#38;')}"`);
  });

  it('everything is HTML-escaped (names, tags, industry, user ids)', async () => {
    const evil = '<img src=x onerror=alert(1)>"\'&';
    const hub = newHub({ seed: seedWith({ name: evil, industry: evil, tags: [evil, 'javascript:alert(1)'] }) });
    const page = await open(hub, 'evil', await tokenFor(hub, `${evil}\u2028🙂`));
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&#60;img src=x onerror=alert(1)&#62;&#34;&#39;&#38;');
    expect(page.html).not.toContain('href="javascript:');
  });

  it('a missing, unknown or expired token gets a clear 401 page', async () => {
    const hub = newHub({ tokenTtlSeconds: 10 });
    const token = await tokenFor(hub, 'u');
    for (const t of [null, '', 'at-unknown']) {
      const page = await open(hub, 'k3Xp9a', t);
      expect(page.status).toBe(401);
      expect(page.html).toContain('data-ok="false"');
      expect(page.html).toContain('data-reason="unauthorized"');
    }
    hub.clock.advance(10_000);
    expect((await open(hub, 'k3Xp9a', token)).status).toBe(401);
  });

  it('an unknown or unpublished short code gets a clear 404 page', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'u');
    expect((await open(hub, 'no-such-code', token)).status).toBe(404);
    const unpublished = await open(hub, 'Ti9p3s', token);
    expect(unpublished.status).toBe(404);
    expect(unpublished.html).toContain('not published');
  });

  it('malformed percent-encoding in the path is a 400 page', async () => {
    const hub = newHub();
    const res = await hub.handleForm(new Request(`${hub.formUrl}/%E0%A4%A?token=x`));
    expect(res.status).toBe(400);
  });

  it('tells the parent about load through data attributes read by the page script', async () => {
    const hub = newHub();
    const page = await open(hub, 'k3Xp9a', await tokenFor(hub, 'user-alice'));
    expect(page.html).toContain('data-event="load" data-ok="true" data-balance-cents="5000"');
    expect(page.html).toContain('<script src="/_assets/form.js"></script>');
    const script = await hub.handleForm(new Request(`${hub.formUrl}/_assets/form.js`));
    expect(script.headers.get('content-type')).toContain('text/javascript');
    const js = await script.text();
    expect(js).toContain('location.ancestorOrigins');
    expect(js).toContain('document.referrer');
    expect(js).toContain("source: 'hub-form'");
    expect(js).not.toMatch(/postMessage\([^)]*['"]\*['"]/);
  });
});

describe('form site: submit and paid action', () => {
  it('a free submit is recorded and answered (JSON for script callers)', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    const res = await post(hub, 'k3Xp9a', { token, action: 'submit', message: 'hello <b>' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'submit', ok: true });
    expect(hub.submissions).toEqual([
      expect.objectContaining({ shortCode: 'k3Xp9a', clientUserId: 'user-alice', message: 'hello <b>' }),
    ]);
  });

  it('works without JS: a plain form POST answers an HTML page showing the outcome', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    const res = await post(hub, 'k3Xp9a', { token, action: 'charge' }, false);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Paid 5.00 yuan from your points on this service.');
    expect(res.text).toContain('data-event="charge" data-ok="true" data-amount-cents="500" data-balance-cents="4500"');
  });

  it('without a billing URL the paid action charges the user points and logs a deduct', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    const res = await post(hub, 'k3Xp9a', { token, action: 'charge' });
    expect(res.body.data).toMatchObject({ type: 'charge', ok: true, amountCents: 500, balanceCents: 4500 });
    const logs = await userLogs(hub, 'user-alice');
    expect(logs.body.data.list[0]).toMatchObject({
      source: 'billing',
      record_type: 'deduct',
      change_cents: -500,
      amount_cents: 500,
      balance_after: 4500,
      status: 'success',
      short_code: 'k3Xp9a',
      project_id: 1001,
    });
    expect(hub.ledger().balanced).toBe(true);
  });

  it('without a billing URL insufficient points fail: a failed record, balance unchanged', async () => {
    const hub = newHub({ seed: seedWith({}, 100) });
    const token = await tokenFor(hub, 'user-alice');
    const res = await post(hub, 'evil', { token, action: 'charge' });
    expect(res.body.data).toMatchObject({
      ok: false,
      amountCents: 1205,
      balanceCents: 100,
      reason: 'insufficient-points',
    });
    const logs = await userLogs(hub, 'user-alice');
    expect(logs.body.data.list[0]).toMatchObject({
      record_type: 'failed',
      change_cents: 0,
      balance_after: 100,
      status: 'failed',
    });
  });

  it('with a billing URL: HTTP 200 and ok true is success (billing_deduct with amount in yuan)', async () => {
    const seen: Request[] = [];
    const hub = newHub({
      seed: seedWith({}, 0, [{ billing_url: 'http://billing.test/hook' }]),
      fetch: billingFetch(() => Response.json({ ok: true }), seen),
    });
    const token = await tokenFor(hub, 'user-alice');
    const res = await post(hub, 'evil', { token, action: 'charge' });
    expect(res.body.data).toMatchObject({ ok: true, amountCents: 1205, balanceCents: 0 });
    expect(seen).toHaveLength(1);
    const body = await seen[0]!.json();
    expect(body).toMatchObject({
      event: 'billing_deduct',
      short_code: 'evil',
      target: { client_user_id: 'user-alice' },
      billing: { amount: '12.05' },
    });
    const logs = await userLogs(hub, 'user-alice');
    expect(logs.body.data.list[0]).toMatchObject({
      source: 'billing',
      record_type: 'deduct',
      change_cents: 0,
      status: 'success',
      short_code: 'evil',
    });
  });

  const failures: [string, () => Response | Promise<Response>][] = [
    ['ok false', () => Response.json({ ok: false })],
    ['ok missing', () => Response.json({})],
    ['ok "true" as a string', () => Response.json({ ok: 'true' })],
    ['HTTP 201 with ok true', () => Response.json({ ok: true }, { status: 201 })],
    ['HTTP 500', () => Response.json({ ok: true }, { status: 500 })],
    ['a non-JSON body', () => new Response('ok')],
    ['a network error', () => Promise.reject(new TypeError('fetch failed'))],
  ];
  for (const [name, answer] of failures) {
    it(`with a billing URL: ${name} fails the charge and logs a failed record`, async () => {
      const hub = newHub({
        seed: seedWith({}, 5000, [{ billing_url: 'http://billing.test/hook' }]),
        fetch: billingFetch(answer),
      });
      const token = await tokenFor(hub, 'user-alice');
      const res = await post(hub, 'evil', { token, action: 'charge' });
      expect(res.body.data).toMatchObject({ ok: false, reason: 'declined', balanceCents: 5000 });
      const logs = await userLogs(hub, 'user-alice');
      expect(logs.body.data.list[0]).toMatchObject({ record_type: 'failed', status: 'failed', change_cents: 0 });
      expect(hub.deliveries).toHaveLength(1);
    });
  }

  it('with a billing URL: a timeout fails the charge', async () => {
    const hub = newHub({
      seed: seedWith({}, 5000, [{ billing_url: 'http://billing.test/hook' }]),
      webhookTimeoutMs: 20,
      fetch: (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    });
    const res = await post(hub, 'evil', { token: await tokenFor(hub, 'user-alice'), action: 'charge' });
    expect(res.body.data.ok).toBe(false);
    expect(hub.deliveries[0]).toMatchObject({ outcome: 'timeout', ok: false });
  });

  it('bad form input is refused with a clear error and changes nothing', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    const before = stateOf(hub);
    expect((await post(hub, 'k3Xp9a', { token, action: 'explode' })).status).toBe(400);
    expect((await post(hub, 'k3Xp9a', { token, action: 'submit', message: 'x'.repeat(2001) })).status).toBe(400);
    expect((await post(hub, 'k3Xp9a', { token, action: 'submit', message: 'x'.repeat(70_000) })).status).toBe(413);
    expect((await post(hub, 'k3Xp9a', { token, action: 'charge' }, true, 'application/json')).status).toBe(415);
    expect((await post(hub, 'k3Xp9a', { token: 'bad', action: 'charge' })).status).toBe(401);
    expect((await post(hub, 'Ti9p3s', { token, action: 'charge' })).status).toBe(404);
    expect((await post(hub, 'iM6o1b', { token, action: 'charge' })).status).toBe(400);
    const put = await hub.handleForm(new Request(`${hub.formUrl}/k3Xp9a`, { method: 'PUT' }));
    expect(put.status).toBe(405);
    expect(stateOf(hub)).toBe(before);
  });

  it('the token may come from the query on a POST', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    const res = await hub.handleForm(
      new Request(`${hub.formUrl}/k3Xp9a?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: 'action=submit',
      }),
    );
    expect((await res.json()).data.ok).toBe(true);
  });
});

describe('form site: which balance, and in which language', () => {
  const openIn = async (hub: Simulator, code: string, token: string, acceptLanguage?: string) => {
    const headers: Record<string, string> = acceptLanguage === undefined ? {} : { 'Accept-Language': acceptLanguage };
    const res = await hub.handleForm(
      new Request(`${hub.formUrl}/${encodeURIComponent(code)}?token=${encodeURIComponent(token)}`, { headers }),
    );
    return { status: res.status, html: await res.text(), headers: res.headers };
  };

  it('the balance is named as the service’s points, and the page says before Pay which balance a Pay takes', async () => {
    // No billing URL: the service takes its own points.
    const own = newHub({ seed: seedWith({}) });
    const ownPage = await open(own, 'evil', await tokenFor(own, 'user-alice'));
    expect(ownPage.html).toContain('Your points on this service: <strong id="balance">¥50.00 (5,000 points)</strong>');
    expect(ownPage.html).toContain('Paid actions take points from your points on this service.');
    expect(ownPage.html).not.toMatch(/>Balance /);
    const ownPaid = await post(own, 'evil', { token: await tokenFor(own, 'user-alice'), action: 'charge' });
    expect(ownPaid.body.data).toMatchObject({
      ok: true,
      balanceCents: 3795,
      message: 'Paid 12.05 yuan from your points on this service.',
    });

    // A billing URL: the app charges its own wallet; the points shown do not move, and the page says so.
    const app = newHub({
      seed: seedWith({}, 5000, [{ billing_url: 'http://billing.test/hook' }]),
      fetch: billingFetch(() => Response.json({ ok: true })),
    });
    const appPage = await open(app, 'evil', await tokenFor(app, 'user-alice'));
    expect(appPage.html).toContain(
      'charged by the app you came from, to its own wallet; your points here do not change',
    );
    const appPaid = await post(app, 'evil', { token: await tokenFor(app, 'user-alice'), action: 'charge' });
    expect(appPaid.body.data).toMatchObject({
      ok: true,
      balanceCents: 5000,
      message: "Paid 12.05 yuan from the app's wallet; your points on this service did not change.",
    });
  });

  it('speaks the browser’s first language (Accept-Language, the list navigator.language heads): zh* is zh-CN, anything else English', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'user-alice');
    for (const [header, lang] of [
      ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN'],
      ['zh', 'zh-CN'],
      ['ZH-tw', 'zh-CN'],
      ['en-US,zh-CN;q=0.9', 'en'],
      ['fr;q=0.5, zh-Hans;q=0.8', 'zh-CN'],
      ['zh;q=0, en', 'en'],
      ['zhx-abc', 'en'],
      ['*', 'en'],
      ['', 'en'],
      ['zh-CN;q=2', 'en'],
      ['<script>', 'en'],
      [`${'x,'.repeat(5000)}zh`, 'en'],
      [undefined, 'en'],
    ] as const) {
      const page = await openIn(hub, 'k3Xp9a', token, header);
      expect(page.html.startsWith(`<!doctype html><html lang="${lang}">`), String(header).slice(0, 40)).toBe(true);
      expect(page.headers.get('vary')).toMatch(/Accept-Language/);
    }
    const zh = (await openIn(hub, 'k3Xp9a', token, 'zh-CN')).html;
    expect(zh).toContain('你在本服务的积分：<strong id="balance">¥50.00（5,000 积分）</strong>');
    expect(zh).toContain('提交（免费）');
    expect(zh).toContain('支付 ¥5.00（500 积分）');
    const missing = await openIn(hub, 'nope', token, 'zh-CN');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('该项目表不存在或未发布。');
    const paid = await hub.handleForm(
      new Request(`${hub.formUrl}/k3Xp9a`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          'Accept-Language': 'zh-CN',
        },
        body: new URLSearchParams({ token, action: 'charge' }).toString(),
      }),
    );
    expect((await paid.json()).data.message).toBe('已从你在本服务的积分支付 5.00 元。');
  });
});
