import { describe, expect, it } from 'vitest';
import { iconPng } from '../../packages/hub-embed-mock/src/icons.js';
import { activeKeyOf, defaultSeed, parseSeed, SeedError } from '../../packages/hub-embed-mock/src/seed.js';
import { KEYS, call, newHub } from './helpers.js';

describe('default seed', () => {
  it('has at least 24 published tables over several industries, with Chinese and English names', () => {
    const published = defaultSeed.tables.filter((t) => t.published);
    expect(published.length).toBeGreaterThanOrEqual(24);
    expect(new Set(published.map((t) => t.industry)).size).toBeGreaterThanOrEqual(8);
    expect(published.some((t) => /[\u4e00-\u9fff]/.test(t.name))).toBe(true);
    expect(published.some((t) => /^[A-Za-z][A-Za-z -]+$/.test(t.name))).toBe(true);
    expect(published.every((t) => t.tags.length > 0 && Number.isInteger(t.price_cents))).toBe(true);
  });

  it('has one developer with an active key, a pool and two users, plus disabled, expired and non-developer keys', () => {
    const devs = defaultSeed.accounts.filter((a) => a.role === 'developer');
    expect(devs).toHaveLength(1);
    expect(devs[0]!.pool_cents).toBeGreaterThan(0);
    expect(devs[0]!.users).toHaveLength(2);
    expect(activeKeyOf(defaultSeed)).toBe(KEYS.active);
    const keys = defaultSeed.accounts.flatMap((a) => (a.keys ?? []).map((k) => ({ ...k, role: a.role })));
    expect(keys.some((k) => k.status === 'disabled')).toBe(true);
    expect(keys.some((k) => k.expires_at && Date.parse(k.expires_at) < Date.now())).toBe(true);
    expect(keys.some((k) => k.role === 'member' && k.status === 'active')).toBe(true);
  });

  it('is valid by its own rules and survives a JSON round trip', () => {
    expect(parseSeed(JSON.parse(JSON.stringify(defaultSeed)))).toEqual(parseSeed(defaultSeed));
  });

  it('every seed icon is served by the API site as a PNG (offline), as an uploaded icon would be', async () => {
    const hub = newHub();
    for (const t of defaultSeed.tables) {
      const res = await hub.handleApi(new Request(`${hub.baseUrl}/static/icons/${t.icon}.png`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    }
  });

  it('icon names outside [a-z0-9-] are 404, not rendered', async () => {
    const hub = newHub();
    for (const name of ['%3Cscript%3E', 'UPPER', '..%2F..%2Fetc'])
      expect((await call(hub, 'GET', `/static/icons/${name}.png`)).status).toBe(404);
    expect(() => iconPng('<x>')).toThrow();
  });

  it('hub state does not leak back into defaultSeed', async () => {
    const before = JSON.stringify(defaultSeed);
    const hub = newHub();
    hub.unpublish('k3Xp9a');
    await call(hub, 'POST', '/api/v1/hub/points/users/recharge', {
      key: hub.apiKey,
      json: { client_user_id: 'user-bob', amount_cents: 5 },
    });
    expect(JSON.stringify(defaultSeed)).toBe(before);
  });
});

describe('parseSeed', () => {
  const valid = () => JSON.parse(JSON.stringify(defaultSeed));
  const cases: [string, (s: any) => void, RegExp][] = [
    ['not an object', (s) => Object.assign(s, { accounts: 'x' }), /\$\.accounts/],
    ['bad role', (s) => (s.accounts[0].role = 'admin'), /role/],
    ['negative pool', (s) => (s.accounts[0].pool_cents = -1), /pool_cents/],
    ['fractional balance', (s) => (s.accounts[0].users[0].balance_cents = 1.5), /balance_cents/],
    ['bad key status', (s) => (s.accounts[0].keys[0].status = 'on'), /status/],
    ['bad expiry date', (s) => (s.accounts[0].keys[0].expires_at = 'soon'), /expires_at/],
    ['duplicate short code', (s) => (s.tables[1].short_code = s.tables[0].short_code), /short codes/],
    ['duplicate key', (s) => (s.accounts[1].keys[0].key = s.accounts[0].keys[0].key), /API keys/],
    ['javascript: icon', (s) => (s.tables[0].icon = 'javascript:alert(1)'), /icon/],
    ['missing price', (s) => delete s.tables[0].price_cents, /price_cents/],
    ['non-string tag', (s) => (s.tables[0].tags = [1]), /tags\[0\]/],
    ['webhook without URLs', (s) => (s.accounts[0].webhooks = [{}]), /webhooks\[0\]/],
  ];
  for (const [name, mutate, message] of cases) {
    it(`refuses a seed with ${name}, naming the place`, () => {
      const seed = valid();
      mutate(seed);
      expect(() => parseSeed(seed)).toThrow(SeedError);
      expect(() => parseSeed(seed)).toThrow(message);
    });
  }
});
