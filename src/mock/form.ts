/** The form site: `GET /<short_code>?token=` renders the table's form; POSTs submit or pay. */
import type { HubContext, RequestMeta } from './context.js';
import { FORM_SCRIPT, FORM_STYLE } from './form-assets.js';
import { formLocaleOf, formStrings, type FormStrings } from './form-strings.js';
import { settleDeduct } from './billing.js';
import { iconUrl } from './icons.js';
import { MockHttpError, centsToYuan, readBodyText, yuanAndPoints } from './http.js';
import { chargePoints } from './ledger.js';
import { pushBounded } from './ring.js';
import type { Account, UserRecord } from './state.js';
import type { FormSubmission, SeedTable, WebhookConfig } from './types.js';
import { matchingUrls } from './webhooks.js';

export const FORM_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src http: https: data:; " +
  "connect-src 'self'; form-action 'self'; base-uri 'none'";

const MESSAGE_MAX = 2000;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Outcome {
  type: 'load' | 'submit' | 'charge';
  ok: boolean;
  message: string;
  amountCents?: number;
  balanceCents?: number;
  reason?: string;
  logId?: number;
}

interface PageModel {
  /** The page's language, from the request's Accept-Language (form-strings.ts). */
  t: FormStrings;
  status: number;
  title: string;
  table?: SeedTable;
  user?: UserRecord;
  token?: string;
  shortCode: string;
  outcome: Outcome;
  /** The developer's webhook configurations: with a billing URL, the app's wallet pays, not the points. */
  webhooksOf?: WebhookConfig[];
}

function htmlResponse(status: number, html: string): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': FORM_CSP,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      // The language comes from Accept-Language: a cache must not hand one language's page to another.
      vary: 'Accept-Language',
    },
  });
}

function dataAttrs(shortCode: string, o: Outcome): string {
  const attrs: [string, string | number | undefined][] = [
    ['data-short-code', shortCode],
    ['data-event', o.type],
    ['data-ok', String(o.ok)],
    ['data-amount-cents', o.amountCents],
    ['data-balance-cents', o.balanceCents],
    ['data-reason', o.reason],
  ];
  return attrs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`)
    .join('');
}

function renderPage(hub: HubContext, m: PageModel): string {
  const e = escapeHtml;
  const { t: tr } = m;
  const t = m.table;
  let body: string;
  if (t && m.user && m.token !== undefined) {
    const action = `/${encodeURIComponent(t.short_code)}`;
    const hidden = `<input type="hidden" name="token" value="${e(m.token)}">`;
    // Who pays decides which balance a Pay moves: the page says it before the user presses it.
    const byApp = matchingUrls(m.webhooksOf ?? [], 'billing_deduct').length > 0;
    const paid =
      t.price_cents > 0
        ? `<form method="post" action="${e(action)}" data-action="charge">${hidden}<input type="hidden" name="action" value="charge">` +
          `<button type="submit" part="pay">${e(tr.pay(t.price_cents))}</button>` +
          `<p class="hint" id="pay-source">${e(byApp ? tr.paysByApp : tr.paysByPoints)}</p></form>`
        : '';
    body =
      `<header><img src="${e(iconUrl(t.icon, hub.baseUrl))}" alt="" width="48" height="48">` +
      `<div><h1>${e(t.name)}</h1><p class="meta">${e(t.industry)} · ${t.type === 'A' ? tr.supply : tr.demand}</p></div></header>` +
      `<ul class="tags">${t.tags.map((tag) => `<li>${e(tag)}</li>`).join('')}</ul>` +
      `<p>${tr.user}${tr.colon}<strong id="user">${e(m.user.clientUserId)}</strong></p>` +
      `<p>${e(tr.pointsHere)}${tr.colon}<strong id="balance">${yuanAndPoints(m.user.balanceCents, tr.lang)}</strong></p>` +
      `<p id="outcome" role="status">${m.outcome.type === 'load' ? '' : e(m.outcome.message)}</p>` +
      `<form method="post" action="${e(action)}" data-action="submit">${hidden}<input type="hidden" name="action" value="submit">` +
      `<label for="message">${tr.message}</label><textarea id="message" name="message" maxlength="${MESSAGE_MAX}"></textarea>` +
      `<button type="submit">${tr.submit}</button></form>` +
      paid;
  } else {
    body = `<div class="error"><h1>${e(m.title)}</h1><p id="outcome" role="status">${e(m.outcome.message)}</p></div>`;
  }
  return (
    `<!doctype html><html lang="${tr.lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${e(m.title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/_assets/form.css"></head>` +
    `<body><main id="hub-form"${dataAttrs(m.shortCode, m.outcome)}>${body}</main>` +
    `<script src="/_assets/form.js"></script></body></html>`
  );
}

function errorPage(
  hub: HubContext,
  t: FormStrings,
  status: number,
  title: string,
  message: string,
  reason: string,
  shortCode: string,
): Response {
  return htmlResponse(
    status,
    renderPage(hub, { t, status, title, shortCode, outcome: { type: 'load', ok: false, message, reason } }),
  );
}

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
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

export interface FormSite {
  handle(req: Request, meta: RequestMeta): Promise<Response>;
  readonly submissions: FormSubmission[];
}

export function createFormSite(hub: HubContext): FormSite {
  const submissions: FormSubmission[] = [];

  async function charge(account: Account, user: UserRecord, table: SeedTable, t: FormStrings): Promise<Outcome> {
    const amountCents = table.price_cents;
    const outcome = (paid: boolean, logId: Outcome['logId'], message: string, reason: string): Outcome => ({
      type: 'charge',
      ok: paid,
      amountCents,
      balanceCents: user.balanceCents,
      logId,
      message,
      ...(paid ? {} : { reason }),
    });
    const urls = matchingUrls(account.webhooks, 'billing_deduct');
    if (urls.length === 0) {
      const record = chargePoints(hub.state, account, user, table, hub.now());
      const paid = record.record_type === 'deduct';
      return outcome(paid, record.id, paid ? t.paidByPoints(amountCents) : t.insufficient, 'insufficient-points');
    }
    const reason = `Paid action on ${table.name}`;
    const deliveries = await hub.sendWebhook(account.id, {
      event: 'billing_deduct',
      short_code: table.short_code,
      project_icon_url: iconUrl(table.icon, hub.baseUrl),
      target: { client_user_id: user.clientUserId },
      billing: { amount: centsToYuan(amountCents), reason },
    });
    const { charged: paid, record } = settleDeduct(
      hub.state,
      user,
      table,
      { amountCents, reason },
      deliveries,
      hub.now(),
    );
    return outcome(paid, record.id, paid ? t.paidByApp(amountCents) : t.declined, 'declined');
  }

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
      return outcomeResponse(req, hub, { ...page, outcome: await charge(session.account, user, table, t) });
    }
    throw new MockHttpError(400, 'action must be "submit" or "charge".');
  }

  return { handle, submissions };
}
