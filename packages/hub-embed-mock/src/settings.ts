/**
 * The simulator's options, checked once at construction: a bad value is a thrown error that names the
 * option, never a simulator that misbehaves later.
 */
import { API_PREFIX } from './api.js';
import { checkAllowedHosts } from './hosts.js';
import { trimSlash } from './http.js';
import { checkLogLimit } from './ring.js';
import { fetchWebhookSender } from './webhooks.js';
import type { SimulatorOptions, WebhookSender } from './types.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';
export const DEFAULT_FORM_URL = 'http://127.0.0.1:4011';
export const DEFAULT_FAULT_PATHS = [`${API_PREFIX}/projects/published-list`];

/** What an API prefix looks like: `/api/v<n>/<segment>`, as the spec's `/api/v1/hub` and the deployment's `/api/v1/apihub`. */
const API_PREFIX_SHAPE = /^\/api\/v\d{1,4}\/[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,63}$/;

/** The prefix the open API is served under; anything else is an error that names the shape. */
export function checkApiPrefix(value: unknown, name = 'apiPrefix'): string {
  if (value === undefined) return API_PREFIX;
  if (typeof value !== 'string' || !API_PREFIX_SHAPE.test(value))
    throw new TypeError(`${name} must be /api/v<n>/<segment>, such as /api/v1/hub or /api/v1/apihub.`);
  return value;
}

export interface HubSettings {
  baseUrl: string;
  formUrl: string;
  apiPrefix: string;
  apiOrigin: string;
  formOrigin: string;
  tokenTtlSeconds: number;
  latencyMs: number;
  jitterMs: number;
  faultRate: number;
  dropRate: number;
  faultPaths: string[];
  random: () => number;
  corsOrigins: string[] | 'loopback';
  outboundFetch: typeof fetch;
  sender: WebhookSender;
  connectTimeoutMs: number;
  timeoutMs: number;
  /** Host names answered besides loopback: `allowedHosts` and the hosts of baseUrl and formUrl. */
  allowedHosts: string[];
  /** Entries kept in each log (requests, deliveries, submissions). */
  logLimit: number;
}

function checkRate(value: number | undefined, name: string): number {
  const rate = value ?? 0;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    throw new RangeError(`${name} must be a number from 0 to 1.`);
  return rate;
}

function checkMs(value: number | undefined, fallback: number, name: string): number {
  const ms = value ?? fallback;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
    throw new RangeError(`${name} must be a non-negative number of milliseconds.`);
  return ms;
}

function originOf(url: string, name: string): string {
  try {
    return new URL(url).origin;
  } catch {
    throw new TypeError(`${name} must be an absolute URL such as http://127.0.0.1:4010.`);
  }
}

export function checkSettings(options: SimulatorOptions): HubSettings {
  const baseUrl = trimSlash(options.baseUrl ?? DEFAULT_BASE_URL);
  const formUrl = trimSlash(options.formUrl ?? DEFAULT_FORM_URL);
  const apiPrefix = checkApiPrefix(options.apiPrefix);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 7200;
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds <= 0)
    throw new RangeError('tokenTtlSeconds must be a positive integer.');
  // Captured now: tests may later replace globalThis.fetch with hub.fetch, which must not loop.
  const outboundFetch: typeof fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    baseUrl,
    formUrl,
    apiPrefix,
    apiOrigin: originOf(baseUrl, 'baseUrl'),
    formOrigin: originOf(formUrl, 'formUrl'),
    tokenTtlSeconds,
    latencyMs: checkMs(options.latencyMs, 0, 'latencyMs'),
    jitterMs: checkMs(options.latencyJitterMs, 0, 'latencyJitterMs'),
    faultRate: checkRate(options.faultRate, 'faultRate'),
    dropRate: checkRate(options.dropRate, 'dropRate'),
    faultPaths: options.faultPaths ?? [`${apiPrefix}/projects/published-list`],
    random: options.random ?? Math.random,
    corsOrigins: options.corsOrigins ?? 'loopback',
    outboundFetch,
    sender: options.webhookSender ?? fetchWebhookSender(outboundFetch),
    connectTimeoutMs: checkMs(options.webhookConnectTimeoutMs, 5000, 'webhookConnectTimeoutMs'),
    timeoutMs: checkMs(options.webhookTimeoutMs, 10000, 'webhookTimeoutMs'),
    // The operator chose baseUrl and formUrl, so their hosts are answered too.
    allowedHosts: [...checkAllowedHosts(options.allowedHosts), new URL(baseUrl).hostname, new URL(formUrl).hostname],
    logLimit: checkLogLimit(options.logLimit),
  };
}
