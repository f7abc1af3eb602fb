/**
 * Yuan amounts as the service writes them ("0.29") and integer cents, converted through strings only:
 * parseFloat("0.29") * 100 is 28.999999999999996, and a lost cent is a wrong charge.
 */

/** Digits, a dot, exactly two digits. No sign, no exponent, no spaces, no full-width digits. */
const YUAN = /^([0-9]+)\.([0-9]{2})$/;

/** Integer cents for an amount like "10.00", or undefined when the text is not exactly that form. */
export function parseYuanToCents(amount: unknown): number | undefined {
  if (typeof amount !== 'string') return undefined;
  const match = YUAN.exec(amount);
  if (!match) return undefined;
  // Both groups always take part in a match; a missing one would give NaN, which is not a safe integer.
  const cents = Number(match[1]) * 100 + Number(match[2]);
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/** "12.34" for 1234: the inverse of parseYuanToCents for every non-negative safe integer. */
export function formatCentsAsYuan(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`Cents must be a non-negative safe integer, got ${String(cents)}.`);
  }
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
