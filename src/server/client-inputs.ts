/**
 * The server client's inputs, checked before anything is sent: its settings (the key and the address, from
 * the environment, named by the variable the docs read them from) and each call's arguments. A bad one is
 * a HubError of kind 'config' that says what a good one looks like and never quotes a secret.
 */
import { HubError } from '../core/errors.js';
import { apiBaseUrl } from '../core/urls.js';
import { ILL_FORMED_ID, isWellFormedId } from './ids.js';
import { ILL_FORMED_ORDER_ID } from './order-marker.js';
import type { FindRechargeInput } from './recharge-client.js';
import { settingError } from './settings.js';

export function configError(message: string): HubError {
  return new HubError('config', message);
}

const API_KEY = { option: 'apiKey', variable: 'HUB_API_KEY' };
const BASE_URL = { option: 'baseUrl', variable: 'HUB_BASE_URL' };

export function checkApiKey(apiKey: unknown): string {
  // Never quote the value: a wrong key is still a key.
  if (typeof apiKey !== 'string' || apiKey.trim() === '')
    throw settingError(
      API_KEY,
      "apiKey is not set: give createServerClient the full plaintext API key from the developer console, from your server's environment (HUB_API_KEY in the docs).",
    );
  if (/[\u0000-\u001f\u007f]/.test(apiKey) || /[^\u0000-\u00ff]/.test(apiKey))
    throw settingError(
      API_KEY,
      'apiKey contains characters no API key has; check the value of HUB_API_KEY (or wherever it comes from) for pasted line breaks.',
    );
  return apiKey;
}

export function checkBaseUrl(baseUrl: unknown): string {
  if (baseUrl === undefined || baseUrl === null || (typeof baseUrl === 'string' && baseUrl.trim() === ''))
    throw settingError(
      BASE_URL,
      "baseUrl is not set: give createServerClient the service's address, like https://hub.example.com/api/v1/apihub, from your server's environment (HUB_BASE_URL in the docs).",
    );
  try {
    return apiBaseUrl(baseUrl, 'baseUrl');
  } catch (error) {
    // apiBaseUrl's one message says what a usable value looks like; it never quotes the value.
    throw settingError(BASE_URL, `${(error as Error).message} Check HUB_BASE_URL (or wherever it comes from).`);
  }
}

export function checkUserId(clientUserId: unknown): string {
  if (typeof clientUserId !== 'string' || clientUserId.trim() === '') {
    throw configError('clientUserId must be a non-empty string: your own id of the end user.');
  }
  if (!isWellFormedId(clientUserId)) throw configError(ILL_FORMED_ID);
  return clientUserId;
}

export function checkToken(accessToken: unknown): string {
  if (typeof accessToken !== 'string' || accessToken === '' || /[\u0000-\u001f\u007f]/.test(accessToken))
    throw configError('accessToken must be the access token of an end user, from exchangeToken.');
  return accessToken;
}

export function checkOptionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw configError(`${name} must be a string when given.`);
  return value;
}

/** An order id becomes the marker's hash input, so it must have a UTF-8 spelling. */
export function checkOrderId(value: unknown): string | undefined {
  const orderId = checkOptionalString(value, 'externalOrderId');
  if (orderId !== undefined && !isWellFormedId(orderId)) throw configError(ILL_FORMED_ORDER_ID);
  return orderId;
}

export function checkInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw configError(
      `${name} must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'Number.MAX_SAFE_INTEGER' : max}.`,
    );
  }
  return value;
}

/** A time in ms since the epoch, as Date.now() gives it. */
export function checkTime(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw configError(`${name} must be a time in ms since the epoch, as Date.now() gives it.`);
  return value;
}

/** The order a lookup names: checked before anything is read. */
export function checkLookup(
  input: FindRechargeInput | undefined,
  what: string,
): { id: string; externalOrderId: string; amountCents: number } {
  if (typeof input !== 'object' || input === null)
    throw configError(`${what} needs {clientUserId, externalOrderId, amountCents}.`);
  const id = checkUserId(input.clientUserId);
  const amountCents = checkInteger(input.amountCents, 'amountCents', 1, Number.MAX_SAFE_INTEGER);
  const externalOrderId = checkOrderId(input.externalOrderId);
  if (externalOrderId === undefined) throw configError(`${what} needs the externalOrderId of the recharge.`);
  return { id, externalOrderId, amountCents };
}
