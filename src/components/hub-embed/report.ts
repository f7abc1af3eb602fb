import type { HubError } from '../../core/errors.js';

/** The errors already written, by kind and message: each distinct error once per page. */
const reported = new Set<string>();

/**
 * Writes a widget error to the browser console once, with its message, which says what to check (as
 * Stripe.js does): the developer sees why the widget shows an error without listening for hub-error. A
 * hub-error listener that calls preventDefault() handles the error itself, and nothing is written.
 */
export function reportOnce(error: HubError): void {
  const key = `${error.kind} ${error.message}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.error(`hub-embed: ${error.message}`, error);
}
