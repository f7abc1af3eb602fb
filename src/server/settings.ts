/**
 * Settings that come from the server's environment (the API key, the service's address, the webhook
 * allow-list): checked where they are first used, not where the module that names them is loaded, because
 * a build loads every route module and has no secrets.
 */
import { HubError } from '../core/errors.js';

/** Which setting an error is about: the option and the environment variable the docs read it from. */
export interface Setting {
  option: string;
  variable: string;
}

const settingOf = new WeakMap<object, Setting>();

/** A config error about a setting, which a handler answers 500 (the server's fault), never 4xx or 502. */
export function settingError(setting: Setting, message: string): HubError {
  const error = new HubError('config', message);
  settingOf.set(error, setting);
  return error;
}

/** The setting a settingError names, or undefined for any other error. */
export function unsetSetting(error: unknown): Setting | undefined {
  return typeof error === 'object' && error !== null ? settingOf.get(error) : undefined;
}

/**
 * `read` on first use, and again on each use until it succeeds (so a value given after the module loaded
 * is taken); its first valid result is kept for good, so settings never change under requests in flight.
 */
export function checkedOnUse<T>(read: () => T): () => T {
  let checked: { value: T } | undefined;
  return () => {
    if (!checked) checked = { value: read() };
    return checked.value;
  };
}

/** The one line a handler logs about its missing settings: the first time only, not once per request. */
export function reportOnce(report: (error: unknown) => void): (error: unknown) => void {
  let reported = false;
  return (error) => {
    if (reported) return;
    reported = true;
    report(error);
  };
}
