/**
 * Faults around a recharge, before or after the work is done: the cases a client must tell apart from the
 * answer alone, and cannot. A recharge may be lost or refused before it is applied (nothing changed), or
 * applied and then its answer dropped, failed with a 5xx, delayed, or applied only later, after its answer
 * was lost. A retrying client must not credit twice; a giving-up client must not lose a paid top-up. What a
 * service keeps of the remark is its profile's (profiles.ts), not a fault.
 */
import { API_PREFIX } from './api.js';
import type { RechargeAnswerFaults, RechargeFault } from './types.js';

/** Thrown when a recharge's answer is to be dropped; the Node server closes the socket without a byte. */
export class DroppedAnswer extends Error {
  constructor(applied = true) {
    super(
      applied
        ? 'The simulator applied the recharge and dropped its answer (rechargeFaults).'
        : 'The simulator dropped the recharge before applying it (rechargeFaults).',
    );
    this.name = 'DroppedAnswer';
  }
}

const RECHARGE_PATH_END = '/points/users/recharge';
const NONE: RechargeFault = { kind: 'none' };

function rate(value: unknown, name: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new RangeError(`rechargeFaults.${name} must be a number from 0 to 1.`);
  return value;
}

function milliseconds(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new RangeError(`rechargeFaults.${name} must be a non-negative number of milliseconds.`);
  return value;
}

const RATES = [
  ['dropBeforeRate', 'drop-before'],
  ['errorBeforeRate', 'error-before'],
  ['conflictRate', 'conflict'],
  ['failedAttemptRate', 'failed-attempt'],
  ['dropRate', 'drop'],
  ['errorRate', 'error-after'],
  ['delayRate', 'delay'],
  ['lateApplyRate', 'late-apply'],
] as const;

/**
 * Checks the options once; the returned function plans the faults of one API request. Only a recharge
 * (POST under the API prefix) meets any: the faults are about money moved or not.
 */
export function answerFaults(
  options: RechargeAnswerFaults | undefined,
  random: () => number,
  apiPrefix = API_PREFIX,
): (method: string, path: string) => RechargeFault {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new TypeError(
      'rechargeFaults must be an object {dropRate?, delayRate?, delayMs?, dropBeforeRate?, errorBeforeRate?, ' +
        'errorRate?, conflictRate?, failedAttemptRate?, lateApplyRate?, lateApplyMs?, pick?}.',
    );
  const rates = RATES.map(([name, kind]) => [rate(options?.[name], name), kind] as const);
  const total = rates.reduce((sum, [value]) => sum + value, 0);
  if (total > 1) throw new RangeError('rechargeFaults: the rates together must be at most 1.');
  const delayMs = milliseconds(options?.delayMs, 'delayMs', 15_000);
  const lateApplyMs = milliseconds(options?.lateApplyMs, 'lateApplyMs', 1_000);
  const pick = options?.pick;
  if (pick !== undefined && typeof pick !== 'function')
    throw new TypeError('rechargeFaults.pick must be a function returning a fault.');
  if (total === 0 && pick === undefined) return () => NONE;

  const rolled = (): RechargeFault => {
    if (total === 0) return { kind: 'none' };
    let roll = random();
    for (const [value, kind] of rates) {
      if (roll < value) {
        if (kind === 'delay') return { kind, ms: delayMs };
        if (kind === 'late-apply') return { kind, ms: lateApplyMs };
        if (kind === 'error-before' || kind === 'error-after') return { kind, status: 502 };
        if (kind === 'failed-attempt') return { kind, status: 500 };
        return { kind };
      }
      roll -= value;
    }
    return { kind: 'none' };
  };

  return (method, path) => {
    if (method !== 'POST' || path !== apiPrefix + RECHARGE_PATH_END) return NONE;
    return pick?.() ?? rolled();
  };
}
