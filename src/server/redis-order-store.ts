/**
 * The order store of createRechargeOrders on Redis, for instances that share no database: each order one
 * JSON value, every step one Lua script (atomic on the server), and Redis's own TIME as the one clock every
 * instance's claims and sends are judged by. Open orders are kept in a sorted set by the time they were paid.
 */
import { HubError } from '../core/errors.js';
import { conflictingOrder, type OrderClaim, type OrderState, type OrderStore } from './order-store.js';

export interface RedisOrderStoreOptions {
  /** A connected node-redis client (v4 or v5): only its `eval` is used, typed by shape as the token cache's client. */
  client: { eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown> };
  /** Prefix of every key this store writes. Default `hub-embed:`. */
  prefix?: string;
}

/** Redis's clock in ms: one clock for every instance. */
const NOW = `local time = redis.call('TIME') local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

const ADD = `${NOW}
local found = redis.call('GET', KEYS[1])
if found then
  local order = cjson.decode(found)
  if order.clientUserId == ARGV[2] and order.amountCents == tonumber(ARGV[3]) then return 'ok' end
  return 'conflict'
end
redis.call('SET', KEYS[1], cjson.encode({ clientUserId = ARGV[2], amountCents = tonumber(ARGV[3]), state = 'paid', sentAt = -1, fence = 0, claimedUntil = 0 }))
redis.call('ZADD', KEYS[2], now, ARGV[1])
return 'ok'`;

const CLAIM = `${NOW}
local found = redis.call('GET', KEYS[1])
if not found then return 'missing' end
local order = cjson.decode(found)
if order.state == 'credited' then return 'credited' end
if order.claimedUntil > now then return 'claimed' end
order.fence = order.fence + 1
order.claimedUntil = now + tonumber(ARGV[1])
redis.call('SET', KEYS[1], cjson.encode(order))
order.now = now
return cjson.encode(order)`;

/** The claim held with this fence, or nothing: the shared check of RENEW and WRITE. */
const HELD = `${NOW}
local found = redis.call('GET', KEYS[1])
if not found then return 0 end
local order = cjson.decode(found)
if order.fence ~= tonumber(ARGV[1]) or order.claimedUntil <= now then return 0 end`;

const RENEW = `${HELD}
order.claimedUntil = now + tonumber(ARGV[2])
redis.call('SET', KEYS[1], cjson.encode(order))
return 1`;

const WRITE = `${HELD}
order.state = ARGV[2]
if ARGV[3] == '1' then order.sentAt = now end
if ARGV[4] == '1' then order.claimedUntil = 0 end
redis.call('SET', KEYS[1], cjson.encode(order))
if order.state == 'credited' then redis.call('ZREM', KEYS[2], ARGV[5]) end
return 1`;

const OPEN = `return redis.call('ZRANGE', KEYS[1], 0, -1)`;

interface StoredJson {
  clientUserId: string;
  amountCents: number;
  state: OrderState;
  sentAt: number;
  fence: number;
  now: number;
}

export function createRedisOrderStore(options: RedisOrderStoreOptions): OrderStore {
  const client = options?.client;
  if (typeof client?.eval !== 'function')
    throw new HubError('config', 'createRedisOrderStore needs {client}: a connected node-redis client.');
  const prefix = options.prefix ?? 'hub-embed:';
  const orderKey = (orderId: string) => `${prefix}order:${orderId}`;
  const openKey = `${prefix}orders:open`;
  const run = (script: string, keys: string[], args: (string | number)[]) =>
    client.eval(script, { keys, arguments: args.map(String) });

  return {
    async add({ orderId, clientUserId, amountCents }) {
      const answer = await run(ADD, [orderKey(orderId), openKey], [orderId, clientUserId, amountCents]);
      if (answer === 'conflict') throw conflictingOrder(orderId);
    },
    async claim(orderId, holdMs) {
      const answer = await run(CLAIM, [orderKey(orderId)], [holdMs]);
      if (answer === 'missing' || answer === 'credited' || answer === 'claimed') return answer;
      const order = JSON.parse(String(answer)) as StoredJson;
      const claim: OrderClaim = {
        order: {
          orderId,
          clientUserId: order.clientUserId,
          amountCents: order.amountCents,
          state: order.state,
          sentAt: order.sentAt < 0 ? undefined : order.sentAt,
        },
        fence: order.fence,
        now: order.now,
      };
      return claim;
    },
    async renew(orderId, fence, holdMs) {
      return Number(await run(RENEW, [orderKey(orderId)], [fence, holdMs])) === 1;
    },
    async write(orderId, fence, change) {
      const flags = [change.sent === true ? 1 : 0, change.release === true ? 1 : 0];
      return Number(await run(WRITE, [orderKey(orderId), openKey], [fence, change.state, ...flags, orderId])) === 1;
    },
    async open() {
      const ids = await run(OPEN, [openKey], []);
      return Array.isArray(ids) ? ids.map(String) : [];
    },
  };
}
