/**
 * Faults after the work is done: a recharge is applied, and then its answer is dropped (the connection
 * closed without a response) or delayed. This is the case a retrying client must not credit twice and a
 * giving-up client must not lose: the service changed the balance, the caller never heard.
 */
import { API_PREFIX } from './api.js';
import type { RechargeAnswerFaults } from './types.js';

/** Thrown after a recharge was applied when its answer is to be dropped; the Node server closes the socket. */
export class DroppedAnswer extends Error {
  constructor() {
    super('The simulator applied the recharge and dropped its answer (rechargeFaults.dropRate).');
    this.name = 'DroppedAnswer';
  }
}

export type AnswerFault = { kind: 'none' } | { kind: 'drop' } | { kind: 'delay'; ms: number };

const RECHARGE_PATH = `${API_PREFIX}/points/users/recharge`;

function rate(value: unknown, name: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new RangeError(`rechargeFaults.${name} must be a number from 0 to 1.`);
  return value;
}

/** Checks the options once; the returned function picks the fault for one answered request. */
export function answerFaults(
  options: RechargeAnswerFaults | undefined,
  random: () => number,
): (path: string, status: number) => AnswerFault {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new TypeError('rechargeFaults must be an object {dropRate?, delayRate?, delayMs?}.');
  const dropRate = rate(options?.dropRate, 'dropRate');
  const delayRate = rate(options?.delayRate, 'delayRate');
  const delayMs = options?.delayMs ?? 15_000;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0)
    throw new RangeError('rechargeFaults.delayMs must be a non-negative number of milliseconds.');
  return (path, status) => {
    // Only an applied recharge: a refused one (400, 402, 409) changed nothing, so losing its answer tests nothing.
    if (path !== RECHARGE_PATH || status !== 200 || (dropRate === 0 && delayRate === 0)) return { kind: 'none' };
    const roll = random();
    if (roll < dropRate) return { kind: 'drop' };
    if (roll < dropRate + delayRate) return { kind: 'delay', ms: delayMs };
    return { kind: 'none' };
  };
}
