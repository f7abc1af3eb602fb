/** The simulator's logs are bounded rings: past `limit` entries, the oldest go. */

export const DEFAULT_LOG_LIMIT = 1000;

export function checkLogLimit(value: unknown): number {
  const limit = value ?? DEFAULT_LOG_LIMIT;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError('logLimit must be a positive integer (entries kept in each log).');
  return limit;
}

export function pushBounded<T>(list: T[], item: T, limit: number): void {
  list.push(item);
  if (list.length > limit) list.splice(0, list.length - limit);
}
