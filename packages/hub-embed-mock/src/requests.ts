/**
 * The request pipeline of both sites: simulated latency and faults, routing, error answers, CORS and
 * the request log. Routes only produce answers; everything every request goes through is here.
 */
import { DroppedAnswer } from './answer-faults.js';
import type { HubContext, RequestMeta, Route } from './context.js';
import { findRoute } from './context.js';
import { corsHeaders, preflight } from './cors.js';
import { formErrorResponse, type FormSite } from './form.js';
import { hostHeaderRefusal } from './hosts.js';
import { MockHttpError, errorResponse } from './http.js';
import { ICON_NAME, iconPng } from './icons.js';
import { gatewayPage, logsGatewayError } from './profiles.js';
import type { HubSettings } from './settings.js';
import type { Simulator, RequestLogEntry, RechargeFault } from './types.js';

export interface PipelineParts {
  settings: HubSettings;
  context: HubContext;
  routes: Route[];
  formSite: FormSite;
  /** Called with each answered request (the request log and `onRequest`). */
  record: (entry: RequestLogEntry) => void;
  /** The faults of one request (answer-faults.ts): a recharge lost, failed or late, before or after it is applied. */
  answerFault: (method: string, path: string) => RechargeFault;
}

export type RequestPipeline = Pick<Simulator, 'handleApi' | 'handleForm' | 'fetch'>;

function isConsole(url: URL): boolean {
  return url.pathname === '/console' || url.pathname.startsWith('/console/');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withAbort(signal: AbortSignal | null | undefined, work: Promise<Response>): Promise<Response> {
  if (!signal) return work;
  if (signal.aborted)
    return Promise.reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function iconResponse(req: Request, name: string): Response {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new MockHttpError(405, 'Use GET.', { allow: 'GET, HEAD' });
  return new Response(req.method === 'HEAD' ? null : iconPng(name), {
    headers: {
      'content-type': 'image/png',
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    },
  });
}

export function createRequestPipeline({
  settings,
  context,
  routes,
  formSite,
  record,
  answerFault,
}: PipelineParts): RequestPipeline {
  const { corsOrigins, faultRate, faultPaths, random, latencyMs, jitterMs } = settings;

  function log(site: 'api' | 'form', req: Request, url: URL, status: number, meta: RequestMeta): void {
    const entry: RequestLogEntry = {
      time: context.now(),
      site,
      method: req.method,
      path: url.pathname,
      status,
      auth: meta.auth,
    };
    if (meta.clientUserId !== undefined) entry.clientUserId = meta.clientUserId;
    record(entry);
  }

  async function routeApi(req: Request, url: URL, meta: RequestMeta): Promise<Response> {
    if (req.method === 'OPTIONS')
      return isConsole(url)
        ? errorResponse(403, 'The console answers its own pages only.')
        : preflight(req, corsOrigins);
    if (faultRate > 0 && faultPaths.includes(url.pathname) && random() < faultRate) {
      return errorResponse(500, 'Injected fault (fault rate); retry the request.');
    }
    const icon = /^\/static\/icons\/([^/]+)\.png$/.exec(url.pathname);
    if (icon && ICON_NAME.test(icon[1]!)) return embeddable(iconResponse(req, icon[1]!), false);
    const found = findRoute(routes, req.method, url.pathname);
    if ('handle' in found) return found.handle(req, url, meta);
    if (found.status === 405)
      throw new MockHttpError(405, `Method ${req.method} is not allowed here; use ${found.allow}.`, {
        allow: found.allow,
      });
    // A client that put the prefix on twice, or asks under another one, learns where the API is.
    const where = url.pathname.startsWith('/api/') ? ` The open API is under ${context.apiPrefix}/.` : '';
    throw new MockHttpError(404, `No such endpoint: ${req.method} ${url.pathname}.${where}`);
  }

  /** Answered before anything else on both sites, so a request with a refused Host header reaches no route. */
  function refusedHostHeader(site: 'api' | 'form', req: Request, url: URL): Response | undefined {
    const refusal = hostHeaderRefusal(req.headers.get('host'), settings.allowedHosts);
    if (refusal === undefined) return undefined;
    log(site, req, url, 403, { auth: 'none' });
    return new Response(refusal, {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    });
  }

  async function handleApi(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const refused = refusedHostHeader('api', req, url);
    if (refused) return refused;
    const meta: RequestMeta = { auth: 'none' };
    if (latencyMs > 0 || jitterMs > 0) await sleep(latencyMs + random() * jitterMs);
    const { gatewayTimeoutMs, proxyRepeatsPost } = context.profile;
    if (proxyRepeatsPost && req.method === 'POST' && url.pathname === `${context.apiPrefix}/points/users/recharge`) {
      // The proxy sends the same POST on once more after the first; the caller hears only the second.
      await serve(req.clone(), url, { auth: 'none' }).catch(() => undefined);
    }
    if (gatewayTimeoutMs === 0) return serve(req, url, meta);
    // The gateway gives up and answers its own 504; the service behind it goes on with the request.
    const served = serve(req, url, meta);
    served.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<'gave-up'>(
      (resolve) => (timer = setTimeout(() => resolve('gave-up'), gatewayTimeoutMs)),
    );
    try {
      const first = await Promise.race([served, gaveUp]);
      return first === 'gave-up' ? finish(req, url, meta, gatewayPage(504)) : first;
    } finally {
      clearTimeout(timer);
    }
  }

  /** One API request as the service (behind any gateway) serves it: its profile, then its faults. */
  async function serve(req: Request, url: URL, meta: RequestMeta): Promise<Response> {
    const { profile, apiPrefix } = context;
    if (req.method === 'GET' && url.pathname === `${apiPrefix}/points/users/logs`) {
      const page = Number(url.searchParams.get('page') ?? '1');
      const gateway = logsGatewayError(profile, Number.isSafeInteger(page) ? page : 1);
      if (gateway) return finish(req, url, meta, gateway);
    }
    const isRecharge = req.method === 'POST' && url.pathname === `${apiPrefix}/points/users/recharge`;
    if (isRecharge && profile.applyDelayMs > 0) await sleep(profile.applyDelayMs);
    const fault = answerFault(req.method, url.pathname);
    if (fault.kind === 'drop-before') throw new DroppedAnswer(false);
    if (fault.kind === 'late-apply') {
      // The caller hears nothing now; the recharge is applied (and logged) later, as a slow queue would.
      setTimeout(() => void answer(req, url, meta), fault.ms);
      throw new DroppedAnswer(false);
    }
    if (fault.kind === 'failed-attempt') meta.failedAttempt = fault.status;
    const response =
      fault.kind === 'error-before'
        ? finish(
            req,
            url,
            meta,
            errorResponse(fault.status, 'Injected fault before the recharge; nothing was changed.'),
          )
        : fault.kind === 'conflict'
          ? finish(req, url, meta, errorResponse(409, 'Injected conflict; nothing was changed.'))
          : await answer(req, url, meta);
    const applied = response.status === 200 && fault.kind !== 'error-before' && fault.kind !== 'conflict';
    if (applied && fault.kind === 'drop') throw new DroppedAnswer();
    if (applied && fault.kind === 'delay') await sleep(fault.ms);
    if (applied && fault.kind === 'error-after')
      return errorResponse(fault.status, 'Injected fault after the recharge was applied.');
    return response;
  }

  /** Routes one API request and logs it. */
  async function answer(req: Request, url: URL, meta: RequestMeta): Promise<Response> {
    let response: Response;
    try {
      response = await routeApi(req, url, meta);
    } catch (error) {
      response =
        error instanceof MockHttpError
          ? errorResponse(error.status, error.message, error.headers)
          : errorResponse(500, 'Internal simulator error.');
    }
    return finish(req, url, meta, response);
  }

  /** Every API answer: CORS headers unless it is the console's, and a line in the request log. */
  function finish(req: Request, url: URL, meta: RequestMeta, response: Response): Response {
    // The console is for its own pages only: no other origin may read it, loopback or not.
    if (!isConsole(url))
      for (const [name, value] of Object.entries(corsHeaders(req.headers.get('origin'), corsOrigins)))
        response.headers.set(name, value);
    log('api', req, url, response.status, meta);
    return response;
  }

  async function handleForm(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const refused = refusedHostHeader('form', req, url);
    if (refused) return refused;
    const meta: RequestMeta = { auth: 'none' };
    let response: Response;
    try {
      response = await formSite.handle(req, meta);
    } catch (error) {
      response =
        error instanceof MockHttpError
          ? formErrorResponse(context, req, error.status, error.message, error.headers)
          : formErrorResponse(context, req, 500, 'Internal simulator error.');
    }
    log('form', req, url, response.status, meta);
    return embeddable(response, true);
  }

  /**
   * A response a cross-origin-isolated page may embed, as the profile's `embedderPolicy` says: a form-site
   * page (`page`) with its own embedder policy, which a frame in such a page must have, and both it and an
   * icon with `Cross-Origin-Resource-Policy: cross-origin`, which `require-corp` asks of what it loads.
   */
  function embeddable(response: Response, page: boolean): Response {
    const { embedderPolicy } = context.profile;
    if (embedderPolicy === 'none') return response;
    response.headers.set('cross-origin-resource-policy', 'cross-origin');
    if (page) response.headers.set('cross-origin-embedder-policy', embedderPolicy);
    return response;
  }

  return {
    handleApi,
    handleForm,
    fetch(input, init) {
      let req: Request;
      try {
        req = new Request(input, init);
      } catch (error) {
        return Promise.reject(error);
      }
      const origin = new URL(req.url).origin;
      if (origin === settings.apiOrigin) return withAbort(req.signal ?? init?.signal, handleApi(req));
      if (origin === settings.formOrigin) return withAbort(req.signal ?? init?.signal, handleForm(req));
      return settings.outboundFetch(input, init);
    },
  };
}
