/**
 * Where paid orders live between "paid" and "credited", and who may act on one: a claim with a fencing
 * token. A claim lasts `holdMs` unless renewed; each new claim gets a larger fence, and every write names
 * the fence it holds, so a holder that stalled past its claim (a pause, a slow service) can write nothing
 * once another holder has the order. Times are the store's own clock, one clock for every instance.
 * createMemoryOrderStore is one process's; examples/express/orders.js keeps the same in Postgres.
 */
import { HubError } from '../core/errors.js';

export type OrderState =
  /** Paid, not sent, or proven not applied: it may be sent. */
  | 'paid'
  /** Sent, and nothing proved the outcome yet: resolved from the logs before anything is sent again. */
  | 'pending'
  /** Credited on the service. */
  | 'credited';

export interface PaidOrder {
  orderId: string;
  clientUserId: string;
  amountCents: number;
}

export interface StoredOrder extends PaidOrder {
  state: OrderState;
  /** When it was last sent, in ms by the store's clock; undefined when never sent. */
  sentAt: number | undefined;
}

export interface OrderClaim {
  order: StoredOrder;
  /** Larger than every fence given for this order before. */
  fence: number;
  /** The store's clock when the claim was made, in ms. */
  now: number;
}

export interface OrderStore {
  /** Records a paid order. The same order again changes nothing; the same id with another user or amount throws. */
  add(order: PaidOrder): Promise<void>;
  /** Claims an order not credited and not claimed by a live claim, for `holdMs`; else says why not. */
  claim(orderId: string, holdMs: number): Promise<OrderClaim | 'credited' | 'claimed' | 'missing'>;
  /** Extends a claim still held with this fence to `holdMs` from now; false when it is not held any more. */
  renew(orderId: string, fence: number, holdMs: number): Promise<boolean>;
  /**
   * Writes the order's state while the claim with this fence is held; `sent: true` stamps `sentAt` with the
   * store's clock; `release` ends the claim. False (and nothing written) when the claim is not held.
   */
  write(
    orderId: string,
    fence: number,
    change: { state: OrderState; sent?: boolean; release?: boolean },
  ): Promise<boolean>;
  /** The ids of every order not credited, oldest paid first. */
  open(): Promise<string[]>;
}

/** An order paid twice with other details: the caller's bug, never silently merged. */
export function conflictingOrder(orderId: string): HubError {
  return new HubError(
    'config',
    `Order ${JSON.stringify(orderId)} was recorded before with another user or amount; nothing was changed.`,
  );
}

/** A synchronous step as a store method: its value, or its throw, as a promise. */
function asMethod<A extends unknown[], R>(step: (...args: A) => R): (...args: A) => Promise<R> {
  return (...args) => new Promise((resolve) => resolve(step(...args)));
}

/** The order store of one process, for a single instance and for tests; `now` is its clock. */
export function createMemoryOrderStore(options: { now?: () => number } = {}): OrderStore {
  const now = options.now ?? Date.now;
  const orders = new Map<string, StoredOrder & { fence: number; claimedUntil: number }>();
  const held = (orderId: string, fence: number) => {
    const order = orders.get(orderId);
    return order !== undefined && order.fence === fence && order.claimedUntil > now() ? order : undefined;
  };
  return {
    add: asMethod((order: PaidOrder) => {
      const found = orders.get(order.orderId);
      if (found === undefined) {
        orders.set(order.orderId, { ...order, state: 'paid', sentAt: undefined, fence: 0, claimedUntil: 0 });
        return;
      }
      if (found.clientUserId !== order.clientUserId || found.amountCents !== order.amountCents)
        throw conflictingOrder(order.orderId);
    }),
    claim: asMethod((orderId: string, holdMs: number): OrderClaim | 'credited' | 'claimed' | 'missing' => {
      const order = orders.get(orderId);
      if (order === undefined) return 'missing';
      if (order.state === 'credited') return 'credited';
      const at = now();
      if (order.claimedUntil > at) return 'claimed';
      order.fence++;
      order.claimedUntil = at + holdMs;
      const { orderId: id, clientUserId, amountCents, state, sentAt } = order;
      return { order: { orderId: id, clientUserId, amountCents, state, sentAt }, fence: order.fence, now: at };
    }),
    renew: asMethod((orderId: string, fence: number, holdMs: number) => {
      const order = held(orderId, fence);
      if (order) order.claimedUntil = now() + holdMs;
      return order !== undefined;
    }),
    write: asMethod(
      (orderId: string, fence: number, change: { state: OrderState; sent?: boolean; release?: boolean }) => {
        const order = held(orderId, fence);
        if (!order) return false;
        order.state = change.state;
        if (change.sent === true) order.sentAt = now();
        if (change.release === true) order.claimedUntil = 0;
        return true;
      },
    ),
    open: asMethod(() =>
      [...orders.values()].filter((order) => order.state !== 'credited').map((order) => order.orderId),
    ),
  };
}
