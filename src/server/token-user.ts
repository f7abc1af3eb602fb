/** Who a token is for: your session lookup's answer, checked before any cache sees it. */
import { HubError } from '../core/errors.js';
import { ILL_FORMED_ID, isWellFormedId } from './ids.js';

/** Nobody is signed in: the browser is told to sign in first (401). */
export const SIGNED_OUT = Symbol('signed out');
/** The lookup threw or answered something other than a usable id; the failure is already reported (500). */
export const SESSION_UNREADABLE = Symbol('session unreadable');

/**
 * The signed-in end user's id from `lookUpSession` (resolveClientUserId applied to the request), or why
 * there is none. Checked at run time: a JavaScript session lookup may answer anything.
 */
export async function resolveUser(
  lookUpSession: () => unknown,
  report: (error: unknown) => void,
): Promise<string | typeof SIGNED_OUT | typeof SESSION_UNREADABLE> {
  let clientUserId: unknown;
  try {
    clientUserId = await lookUpSession();
  } catch (error) {
    report(error);
    return SESSION_UNREADABLE;
  }
  if (
    clientUserId === null ||
    clientUserId === undefined ||
    (typeof clientUserId === 'string' && clientUserId.trim() === '')
  ) {
    return SIGNED_OUT;
  }
  if (typeof clientUserId !== 'string') {
    report(new HubError('config', 'resolveClientUserId must return a string or null.'));
    return SESSION_UNREADABLE;
  }
  // Before any cache sees it: as a key it would collide with another user's.
  if (!isWellFormedId(clientUserId)) {
    report(new HubError('config', ILL_FORMED_ID));
    return SESSION_UNREADABLE;
  }
  return clientUserId;
}
