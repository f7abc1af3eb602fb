/** What the route modules need from the hub, kept narrow so each module can be read on its own. */
import type { CheckedProfile } from './profiles.js';
import type { HubState } from './state.js';
import type { AuthKind, WebhookBody, WebhookDelivery } from './types.js';

export interface HubContext {
  state: HubState;
  baseUrl: string;
  /** Where the open API is served (`/api/v1/hub` unless `apiPrefix` says otherwise). */
  apiPrefix: string;
  formUrl: string;
  /** The service's choices where the spec is silent (profiles.ts). */
  profile: CheckedProfile;
  tokenTtlSeconds: number;
  /** Entries kept in each log. */
  logLimit: number;
  now(): number;
  /** Stamps the time and sends to every matching configuration of the developer, in order. */
  sendWebhook(developerId: number, body: Omit<WebhookBody, 'timestamp'>): Promise<WebhookDelivery[]>;
  /** Sends a recorded delivery's body once more to its URL, as a new delivery. */
  resendWebhook(delivery: WebhookDelivery): Promise<WebhookDelivery>;
  /** The delivery log (a bounded ring, oldest first). */
  readonly deliveries: readonly WebhookDelivery[];
  /** Back to the seed; empties the delivery log and the form submissions. */
  reset(): void;
}

/** Filled in by a route so the request log can say who called. */
export interface RequestMeta {
  auth: AuthKind;
  clientUserId?: string;
  /** A recharge the service logs as a failed attempt and answers with this status (the `failed-attempt` fault). */
  failedAttempt?: number;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** May answer at once. A throw (MockHttpError) is its error answer either way: the pipeline awaits it in a try. */
  handle(req: Request, url: URL, meta: RequestMeta): Response | Promise<Response>;
}

/** Exact-path routing with 404 for unknown paths and 405 (plus Allow) for known paths. */
export function findRoute(
  routes: Route[],
  method: string,
  path: string,
): Route | { status: 404 } | { status: 405; allow: string } {
  const matches = routes.filter((route) => route.path === path);
  if (matches.length === 0) return { status: 404 };
  const route = matches.find((candidate) => candidate.method === method);
  if (route) return route;
  return { status: 405, allow: matches.map((route) => route.method).join(', ') };
}
