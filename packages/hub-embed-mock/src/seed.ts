/** The default seed and the checks that turn any JSON value into a valid seed or a clear error. */
import { isRecord } from '../../../src/core/records.js';
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
  tables: ROWS.map(([short_code, name, industry, icon, tags, type, price_cents], index) => ({
    project_id: 1001 + index,
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
    const key = (account.keys ?? []).find((candidate) => candidate.status === 'active' && !candidate.expires_at);
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

function str(value: unknown, path: string, max = MAX_ID_LENGTH): string {
  if (typeof value !== 'string' || value.trim() === '') fail(path, 'expected a non-empty string');
  if (value.length > max) fail(path, `expected at most ${max} characters`);
  return value;
}

function cents(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_AMOUNT_CENTS)
    fail(path, 'expected a non-negative integer number of cents');
  return value;
}

function id(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    fail(path, 'expected a positive integer id');
  return value;
}

export function checkHttpUrl(value: unknown, path: string): string {
  const text = str(value, path, 2048);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(path, 'expected an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(path, 'expected an absolute http(s) URL');
  return text;
}

export function parseWebhookConfig(value: unknown, path: string): WebhookConfig {
  if (!isRecord(value)) fail(path, 'expected an object');
  const config: WebhookConfig = {};
  if (value.notification_url !== undefined && value.notification_url !== null)
    config.notification_url = checkHttpUrl(value.notification_url, `${path}.notification_url`);
  if (value.billing_url !== undefined && value.billing_url !== null)
    config.billing_url = checkHttpUrl(value.billing_url, `${path}.billing_url`);
  if (value.events !== undefined) {
    if (!Array.isArray(value.events)) fail(`${path}.events`, 'expected an array of event names');
    config.events = value.events.map((event, index) => str(event, `${path}.events[${index}]`, 64));
  }
  if (!config.notification_url && !config.billing_url) fail(path, 'expected notification_url, billing_url or both');
  return config;
}

function parseAccount(value: unknown, path: string): SeedAccount {
  if (!isRecord(value)) fail(path, 'expected an object');
  if (value.role !== 'developer' && value.role !== 'member') fail(`${path}.role`, 'expected "developer" or "member"');
  const account: SeedAccount = {
    id: id(value.id, `${path}.id`),
    name: str(value.name, `${path}.name`),
    role: value.role,
  };
  if (value.pool_cents !== undefined) account.pool_cents = cents(value.pool_cents, `${path}.pool_cents`);
  if (value.keys !== undefined) {
    if (!Array.isArray(value.keys)) fail(`${path}.keys`, 'expected an array');
    account.keys = value.keys.map((key, index) => {
      const where = `${path}.keys[${index}]`;
      if (!isRecord(key)) fail(where, 'expected an object');
      if (key.status !== 'active' && key.status !== 'disabled')
        fail(`${where}.status`, 'expected "active" or "disabled"');
      let expires: string | null = null;
      if (key.expires_at !== undefined && key.expires_at !== null) {
        expires = str(key.expires_at, `${where}.expires_at`, 64);
        if (Number.isNaN(Date.parse(expires))) fail(`${where}.expires_at`, 'expected an ISO 8601 date');
      }
      return { key: str(key.key, `${where}.key`), status: key.status, expires_at: expires };
    });
  }
  if (value.users !== undefined) {
    if (!Array.isArray(value.users)) fail(`${path}.users`, 'expected an array');
    account.users = value.users.map((user, index) => {
      const where = `${path}.users[${index}]`;
      if (!isRecord(user)) fail(where, 'expected an object');
      return {
        client_user_id: str(user.client_user_id, `${where}.client_user_id`),
        balance_cents: cents(user.balance_cents ?? 0, `${where}.balance_cents`),
      };
    });
    const ids = account.users.map((user) => user.client_user_id);
    if (new Set(ids).size !== ids.length) fail(`${path}.users`, 'client_user_id values must be unique');
  }
  if (value.webhooks !== undefined) {
    if (!Array.isArray(value.webhooks)) fail(`${path}.webhooks`, 'expected an array');
    account.webhooks = value.webhooks.map((webhook, index) =>
      parseWebhookConfig(webhook, `${path}.webhooks[${index}]`),
    );
  }
  return account;
}

/** One table in the seed's format (also what the console's Tables page adds). */
export function parseSeedTable(value: unknown, path: string): SeedTable {
  if (!isRecord(value)) fail(path, 'expected an object');
  if (!Array.isArray(value.tags)) fail(`${path}.tags`, 'expected an array of strings');
  const icon = str(value.icon, `${path}.icon`, 2048);
  if (!ICON_NAME.test(icon)) checkHttpUrl(icon, `${path}.icon`);
  if (value.type !== 'A' && value.type !== 'B') fail(`${path}.type`, 'expected "A" or "B"');
  if (typeof value.published !== 'boolean') fail(`${path}.published`, 'expected true or false');
  return {
    project_id: id(value.project_id, `${path}.project_id`),
    short_code: str(value.short_code, `${path}.short_code`, 128),
    name: str(value.name, `${path}.name`),
    industry: str(value.industry, `${path}.industry`),
    icon,
    tags: value.tags.map((t, index) => str(t, `${path}.tags[${index}]`, 64)),
    type: value.type,
    published: value.published,
    price_cents: cents(value.price_cents, `${path}.price_cents`),
  };
}

/** Validates a seed (for example a parsed `--seed` file); returns a fresh copy or throws a SeedError. */
export function parseSeed(value: unknown): MockSeed {
  if (!isRecord(value)) fail('$', 'expected an object with "accounts" and "tables"');
  if (!Array.isArray(value.accounts)) fail('$.accounts', 'expected an array');
  if (!Array.isArray(value.tables)) fail('$.tables', 'expected an array');
  const seed: MockSeed = {
    accounts: value.accounts.map((account, index) => parseAccount(account, `$.accounts[${index}]`)),
    tables: value.tables.map((t, index) => parseSeedTable(t, `$.tables[${index}]`)),
  };
  const unique = (values: unknown[], path: string, what: string) => {
    if (new Set(values).size !== values.length) fail(path, `${what} must be unique`);
  };
  unique(
    seed.accounts.map((account) => account.id),
    '$.accounts',
    'account ids',
  );
  unique(
    seed.accounts.flatMap((account) => (account.keys ?? []).map((key) => key.key)),
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
