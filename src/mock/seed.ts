/** The default seed and the checks that turn any JSON value into a valid seed or a clear error. */
import { ICON_NAME } from './icons.js';
import { MAX_AMOUNT_CENTS, MAX_ID_LENGTH } from './http.js';
import type { MockSeed, SeedAccount, SeedTable, WebhookConfig } from './types.js';

type Row = [code: string, name: string, industry: string, icon: string, tags: string[], type: 'A' | 'B', price: number];

// A varied catalogue: Chinese and English names, overlapping tags (for fuzzy matching), a few prices,
// and one short code full of characters that must be URL-encoded (space, /, ?, #, %, +, CJK, emoji).
const ROWS: Row[] = [
  ['k3Xp9a', '钢结构安装', '建筑工程', 'construction', ['建筑', '钢结构', '施工'], 'A', 500],
  ['Zq7m2L', 'Interior Renovation Crew', 'Construction', 'renovation', ['renovation', '装修', 'interior'], 'A', 300],
  ['hW4t8s', '水电维修上门', '家政服务', 'home-repair', ['水电', '维修', '上门服务'], 'A', 200],
  ['Pf2k9d', 'Same-day City Delivery', 'Logistics', 'logistics', ['delivery', '同城配送', 'urgent'], 'A', 150],
  ['x8Rb1c', '冷链运输需求', '物流运输', 'cold-chain', ['冷链', '物流', 'delivery'], 'B', 800],
  ['mN5v3e', 'Freight Truck Booking', 'Logistics', 'freight', ['freight', '货运', 'logistics'], 'B', 600],
  ['aS6y0q', '团餐配送', '餐饮', 'catering', ['餐饮', '团餐', 'delivery'], 'A', 250],
  ['Lr9c4u', 'Wedding Banquet Catering', 'Catering', 'banquet', ['catering', '宴会', 'event'], 'A', 1200],
  ['tE1j7w', '少儿编程课程', '教育培训', 'education', ['教育', '编程', 'kids'], 'A', 990],
  ['Qb8n6z', 'IELTS Tutoring Request', 'Education', 'tutoring', ['tutoring', '英语', 'education'], 'B', 1500],
  ['vK2h5g', '社区体检预约', '医疗健康', 'healthcare', ['体检', '健康', 'appointment'], 'B', 0],
  ['Jd3w8p', 'Home Nursing Care', 'Healthcare', 'nursing', ['nursing', '护理', 'health'], 'A', 2000],
  ['cY7f1r', '二手车检测', '汽车服务', 'auto', ['汽车', '检测', 'inspection'], 'A', 400],
  ['Hx5q2m', 'Car Wash Subscription', 'Automotive', 'car-wash', ['car', '洗车', 'subscription'], 'A', 100],
  ['uP4z9k', '合同审查咨询', '法律咨询', 'legal', ['法律', '合同', 'consulting'], 'A', 3000],
  ['Gm1s6t', 'Trademark Registration', 'Legal', 'trademark', ['legal', '商标', 'registration'], 'B', 2500],
  ['eV9b3n', '品牌 Logo 设计', '设计', 'design', ['设计', 'logo', 'branding'], 'A', 1800],
  ['Wc6d0x', 'Website Development', 'IT Services', 'web-dev', ['website', '开发', 'IT'], 'A', 5000],
  ['rT2g8h', '企业网络运维', 'IT 服务', 'it-ops', ['运维', 'IT', 'network'], 'B', 1000],
  ['Nk8a4v', 'Organic Vegetable Supply', 'Agriculture', 'agriculture', ['organic', '蔬菜', 'supply'], 'A', 350],
  ['bF3l7y', '农机租赁', '农业', 'farm-machine', ['农机', '租赁', 'agriculture'], 'B', 700],
  ['Ys0e5j', 'City Walking Tours', 'Tourism', 'tourism', ['tour', '旅游', 'travel'], 'A', 450],
  ['oD7r2c', '民宿保洁外包', '旅游住宿', 'cleaning', ['保洁', '民宿', 'cleaning'], 'B', 300],
  ['Ua4i9f', 'Solar Panel Installation', 'Energy', 'solar', ['solar', '光伏', 'installation'], 'A', 4000],
  ['iM6o1b', '写字楼租赁', '房地产', 'real-estate', ['租赁', '办公', 'real estate'], 'B', 0],
  ['promo 2026/秋 ✨?#%+', '秋季促销 Autumn Promo 🍂', '零售', 'retail', ['促销', 'promo', 'retail'], 'A', 99],
  ['Ti9p3s', 'Podcast Editing (unpublished)', 'Media', 'media', ['media', '剪辑'], 'A', 800],
  ['zX2w7q', '直播带货 (未发布)', '电商', 'live-commerce', ['直播', '电商'], 'B', 600],
];

const UNPUBLISHED = new Set(['Ti9p3s', 'zX2w7q']);

/** The seed the CLI serves by default: 26 published tables, one developer, a member, four keys. */
export const defaultSeed: MockSeed = {
  accounts: [
    {
      id: 1,
      name: 'Demo Developer 演示开发者',
      role: 'developer',
      pool_cents: 1_000_000,
      keys: [
        { key: 'sk-mock-active-0123456789abcdef', status: 'active', expires_at: null },
        { key: 'sk-mock-disabled-0123456789abcd', status: 'disabled', expires_at: null },
        { key: 'sk-mock-expired-0123456789abcde', status: 'active', expires_at: '2024-01-01T00:00:00Z' },
      ],
      users: [
        { client_user_id: 'user-alice', balance_cents: 5_000 },
        { client_user_id: 'user-bob', balance_cents: 0 },
      ],
      webhooks: [],
    },
    {
      id: 2,
      name: 'Member account (not a developer)',
      role: 'member',
      keys: [{ key: 'sk-mock-member-0123456789abcdef', status: 'active', expires_at: null }],
    },
  ],
  tables: ROWS.map(([short_code, name, industry, icon, tags, type, price_cents], i) => ({
    project_id: 1001 + i,
    short_code,
    name,
    industry,
    icon,
    tags,
    type,
    published: !UNPUBLISHED.has(short_code),
    price_cents,
  })),
};

/** The active key of the first developer account: what the CLI prints and tests use. */
export function activeKeyOf(seed: MockSeed): string {
  for (const account of seed.accounts) {
    if (account.role !== 'developer') continue;
    const key = (account.keys ?? []).find((k) => k.status === 'active' && !k.expires_at);
    if (key) return key.key;
  }
  throw new Error(
    'The seed has no developer account with an active, non-expiring key; add one so clients can authenticate.',
  );
}

export class SeedError extends Error {
  override readonly name = 'SeedError';
}

function fail(path: string, what: string): never {
  throw new SeedError(`Invalid seed at ${path}: ${what}.`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown, path: string, max = MAX_ID_LENGTH): string {
  if (typeof v !== 'string' || v.trim() === '') fail(path, 'expected a non-empty string');
  if (v.length > max) fail(path, `expected at most ${max} characters`);
  return v;
}

function cents(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_AMOUNT_CENTS)
    fail(path, 'expected a non-negative integer number of cents');
  return v;
}

function id(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) fail(path, 'expected a positive integer id');
  return v;
}

export function checkHttpUrl(v: unknown, path: string): string {
  const text = str(v, path, 2048);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(path, 'expected an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(path, 'expected an absolute http(s) URL');
  return text;
}

export function parseWebhookConfig(v: unknown, path: string): WebhookConfig {
  if (!isObject(v)) fail(path, 'expected an object');
  const config: WebhookConfig = {};
  if (v.notification_url !== undefined && v.notification_url !== null)
    config.notification_url = checkHttpUrl(v.notification_url, `${path}.notification_url`);
  if (v.billing_url !== undefined && v.billing_url !== null)
    config.billing_url = checkHttpUrl(v.billing_url, `${path}.billing_url`);
  if (v.events !== undefined) {
    if (!Array.isArray(v.events)) fail(`${path}.events`, 'expected an array of event names');
    config.events = v.events.map((e, i) => str(e, `${path}.events[${i}]`, 64));
  }
  if (!config.notification_url && !config.billing_url) fail(path, 'expected notification_url, billing_url or both');
  return config;
}

function parseAccount(v: unknown, path: string): SeedAccount {
  if (!isObject(v)) fail(path, 'expected an object');
  if (v.role !== 'developer' && v.role !== 'member') fail(`${path}.role`, 'expected "developer" or "member"');
  const account: SeedAccount = { id: id(v.id, `${path}.id`), name: str(v.name, `${path}.name`), role: v.role };
  if (v.pool_cents !== undefined) account.pool_cents = cents(v.pool_cents, `${path}.pool_cents`);
  if (v.keys !== undefined) {
    if (!Array.isArray(v.keys)) fail(`${path}.keys`, 'expected an array');
    account.keys = v.keys.map((k, i) => {
      const p = `${path}.keys[${i}]`;
      if (!isObject(k)) fail(p, 'expected an object');
      if (k.status !== 'active' && k.status !== 'disabled') fail(`${p}.status`, 'expected "active" or "disabled"');
      let expires: string | null = null;
      if (k.expires_at !== undefined && k.expires_at !== null) {
        expires = str(k.expires_at, `${p}.expires_at`, 64);
        if (Number.isNaN(Date.parse(expires))) fail(`${p}.expires_at`, 'expected an ISO 8601 date');
      }
      return { key: str(k.key, `${p}.key`), status: k.status, expires_at: expires };
    });
  }
  if (v.users !== undefined) {
    if (!Array.isArray(v.users)) fail(`${path}.users`, 'expected an array');
    account.users = v.users.map((u, i) => {
      const p = `${path}.users[${i}]`;
      if (!isObject(u)) fail(p, 'expected an object');
      return {
        client_user_id: str(u.client_user_id, `${p}.client_user_id`),
        balance_cents: cents(u.balance_cents ?? 0, `${p}.balance_cents`),
      };
    });
    const ids = account.users.map((u) => u.client_user_id);
    if (new Set(ids).size !== ids.length) fail(`${path}.users`, 'client_user_id values must be unique');
  }
  if (v.webhooks !== undefined) {
    if (!Array.isArray(v.webhooks)) fail(`${path}.webhooks`, 'expected an array');
    account.webhooks = v.webhooks.map((w, i) => parseWebhookConfig(w, `${path}.webhooks[${i}]`));
  }
  return account;
}

/** One table in the seed's format (also what the console's Tables page adds). */
export function parseSeedTable(v: unknown, path: string): SeedTable {
  if (!isObject(v)) fail(path, 'expected an object');
  if (!Array.isArray(v.tags)) fail(`${path}.tags`, 'expected an array of strings');
  const icon = str(v.icon, `${path}.icon`, 2048);
  if (!ICON_NAME.test(icon)) checkHttpUrl(icon, `${path}.icon`);
  if (v.type !== 'A' && v.type !== 'B') fail(`${path}.type`, 'expected "A" or "B"');
  if (typeof v.published !== 'boolean') fail(`${path}.published`, 'expected true or false');
  return {
    project_id: id(v.project_id, `${path}.project_id`),
    short_code: str(v.short_code, `${path}.short_code`, 128),
    name: str(v.name, `${path}.name`),
    industry: str(v.industry, `${path}.industry`),
    icon,
    tags: v.tags.map((t, i) => str(t, `${path}.tags[${i}]`, 64)),
    type: v.type,
    published: v.published,
    price_cents: cents(v.price_cents, `${path}.price_cents`),
  };
}

/** Validates a seed (for example a parsed `--seed` file); returns a fresh copy or throws a SeedError. */
export function parseSeed(value: unknown): MockSeed {
  if (!isObject(value)) fail('$', 'expected an object with "accounts" and "tables"');
  if (!Array.isArray(value.accounts)) fail('$.accounts', 'expected an array');
  if (!Array.isArray(value.tables)) fail('$.tables', 'expected an array');
  const seed: MockSeed = {
    accounts: value.accounts.map((a, i) => parseAccount(a, `$.accounts[${i}]`)),
    tables: value.tables.map((t, i) => parseSeedTable(t, `$.tables[${i}]`)),
  };
  const unique = (values: unknown[], path: string, what: string) => {
    if (new Set(values).size !== values.length) fail(path, `${what} must be unique`);
  };
  unique(
    seed.accounts.map((a) => a.id),
    '$.accounts',
    'account ids',
  );
  unique(
    seed.accounts.flatMap((a) => (a.keys ?? []).map((k) => k.key)),
    '$.accounts',
    'API keys',
  );
  unique(
    seed.tables.map((t) => t.short_code),
    '$.tables',
    'short codes',
  );
  unique(
    seed.tables.map((t) => t.project_id),
    '$.tables',
    'project ids',
  );
  return seed;
}
