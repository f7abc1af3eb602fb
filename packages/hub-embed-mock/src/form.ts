/** The form site: `GET /<short_code>?token=` renders the table's form; POSTs submit or pay. */
import type { HubContext, RequestMeta } from './context.js';
import { FORM_SCRIPT, FORM_STYLE } from './form-assets.js';
import { charge } from './form-charge.js';
import { MESSAGE_MAX, errorPage, htmlResponse, renderPage, type PageModel } from './form-page.js';
import { formLocaleOf, formStrings, type FormStrings } from './form-strings.js';
import { MockHttpError, readBodyText } from './http.js';
import { pushBounded } from './ring.js';
import type { Account } from './state.js';
import type { FormSubmission } from './types.js';

/** The strings for a request's Accept-Language. */
function stringsFor(req: Request): FormStrings {
  return formStrings(formLocaleOf(req.headers.get('accept-language')));
}

function wantsJson(req: Request): boolean {
  return (req.headers.get('accept') ?? '').includes('application/json');
}

function outcomeResponse(req: Request, hub: HubContext, model: PageModel): Response {
  if (wantsJson(req)) {
    const body =
      model.status === 200
        ? { code: 200, message: 'success', data: model.outcome }
        : { code: model.status, message: model.outcome.message, data: null };
    return new Response(JSON.stringify(body), {
      status: model.status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  return htmlResponse(model.status, renderPage(hub, model));
}

async function readForm(req: Request): Promise<URLSearchParams> {
  const type = (req.headers.get('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded')) {
    throw new MockHttpError(415, 'Send the form as application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(await readBodyText(req));
}

/** A refused form request: an envelope for script callers, a readable page for everyone else. */
export function formErrorResponse(
  hub: HubContext,
  req: Request,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  if (wantsJson(req)) {
    return new Response(JSON.stringify({ code: status, message, data: null }), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    });
  }
  const t = stringsFor(req);
  const response = errorPage(hub, t, status, status === 413 ? t.tooLarge : t.refused, message, 'bad-request', '');
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export interface FormSite {
  handle(req: Request, meta: RequestMeta): Promise<Response>;
  readonly submissions: FormSubmission[];
}

export function createFormSite(hub: HubContext): FormSite {
  const submissions: FormSubmission[] = [];

  async function handle(req: Request, meta: RequestMeta): Promise<Response> {
    const url = new URL(req.url);
    const t = stringsFor(req);
    const raw = url.pathname;
    if (raw === '/_assets/form.js' || raw === '/_assets/form.css') {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new MockHttpError(405, 'Use GET.', { allow: 'GET, HEAD' });
      const js = raw.endsWith('.js');
      return new Response(req.method === 'HEAD' ? null : js ? FORM_SCRIPT : FORM_STYLE, {
        headers: {
          'content-type': js ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
          'cache-control': 'no-cache',
          'x-content-type-options': 'nosniff',
        },
      });
    }
    if (req.method !== 'GET' && req.method !== 'POST') {
      throw new MockHttpError(405, 'The form site accepts GET and POST.', { allow: 'GET, POST' });
    }
    let shortCode: string;
    try {
      shortCode = decodeURIComponent(raw.slice(1));
    } catch {
      return errorPage(hub, t, 400, t.badLinkTitle, t.badLink, 'bad-request', '');
    }
    if (shortCode === '') return errorPage(hub, t, 404, t.notFoundTitle, t.openHow, 'not-found', '');

    const form = req.method === 'POST' ? await readForm(req) : undefined;
    const token = form?.get('token') ?? url.searchParams.get('token');
    if (token) meta.auth = 'bearer';
    let session: { account: Account; clientUserId: string };
    try {
      session = hub.state.authenticateToken(token, hub.now());
    } catch (error) {
      const message = error instanceof MockHttpError ? error.message : 'Unauthorized.';
      if (req.method === 'POST' && wantsJson(req)) throw new MockHttpError(401, message);
      return errorPage(hub, t, 401, t.expiredTitle, t.reopen(message), 'unauthorized', shortCode);
    }
    meta.clientUserId = session.clientUserId;
    const table = hub.state.table(shortCode);
    if (!table || !table.published) {
      if (req.method === 'POST' && wantsJson(req))
        throw new MockHttpError(404, 'This project table does not exist or is not published.');
      return errorPage(hub, t, 404, t.notFoundTitle, t.notPublished, 'not-found', shortCode);
    }
    const user = hub.state.ensureUser(session.account, session.clientUserId);
    const page = {
      t,
      status: 200,
      title: table.name,
      table,
      user,
      token: token!,
      shortCode,
      webhooksOf: session.account.webhooks,
    };

    if (!form) {
      return htmlResponse(
        200,
        renderPage(hub, { ...page, outcome: { type: 'load', ok: true, message: '', balanceCents: user.balanceCents } }),
      );
    }
    const action = form.get('action');
    if (action === 'submit') {
      const message = form.get('message') ?? '';
      if (message.length > MESSAGE_MAX)
        throw new MockHttpError(400, `message must be at most ${MESSAGE_MAX} characters.`);
      pushBounded(
        submissions,
        {
          time: hub.now(),
          shortCode,
          clientUserId: user.clientUserId,
          developerId: session.account.id,
          message,
        },
        hub.logLimit,
      );
      return outcomeResponse(req, hub, {
        ...page,
        outcome: { type: 'submit', ok: true, message: t.submitted, balanceCents: user.balanceCents },
      });
    }
    if (action === 'charge') {
      if (table.price_cents <= 0) throw new MockHttpError(400, 'This table has no paid action.');
      return outcomeResponse(req, hub, { ...page, outcome: await charge(hub, session.account, user, table, t) });
    }
    throw new MockHttpError(400, 'action must be "submit" or "charge".');
  }

  return { handle, submissions };
}
