/** The form site's HTML: the table's form page and its error page, with the headers every page carries. */
import type { HubContext } from './context.js';
import type { FormStrings } from './form-strings.js';
import { iconUrl } from './icons.js';
import { yuanAndPoints } from './http.js';
import type { UserRecord } from './state.js';
import type { SeedTable, WebhookConfig } from './types.js';
import { matchingUrls } from './webhooks.js';

export const FORM_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src http: https: data:; " +
  "connect-src 'self'; form-action 'self'; base-uri 'none'";

/** The longest message a submission may carry: the textarea's maxlength, and what the site takes. */
export const MESSAGE_MAX = 2000;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface Outcome {
  type: 'load' | 'submit' | 'charge';
  ok: boolean;
  message: string;
  amountCents?: number;
  balanceCents?: number;
  reason?: string;
  logId?: number;
}

export interface PageModel {
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

export function htmlResponse(status: number, html: string): Response {
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

function dataAttrs(shortCode: string, outcome: Outcome): string {
  const attrs: [string, string | number | undefined][] = [
    ['data-short-code', shortCode],
    ['data-event', outcome.type],
    ['data-ok', String(outcome.ok)],
    ['data-amount-cents', outcome.amountCents],
    ['data-balance-cents', outcome.balanceCents],
    ['data-reason', outcome.reason],
  ];
  return attrs
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join('');
}

export function renderPage(hub: HubContext, model: PageModel): string {
  const escape = escapeHtml;
  const { t: tr } = model;
  const t = model.table;
  let body: string;
  if (t && model.user && model.token !== undefined) {
    const action = `/${encodeURIComponent(t.short_code)}`;
    const hidden = `<input type="hidden" name="token" value="${escape(model.token)}">`;
    // Who pays decides which balance a Pay moves: the page says it before the user presses it.
    const byApp = matchingUrls(model.webhooksOf ?? [], 'billing_deduct').length > 0;
    const paid =
      t.price_cents > 0
        ? `<form method="post" action="${escape(action)}" data-action="charge">${hidden}<input type="hidden" name="action" value="charge">` +
          `<button type="submit" part="pay">${escape(tr.pay(t.price_cents))}</button>` +
          `<p class="hint" id="pay-source">${escape(byApp ? tr.paysByApp : tr.paysByPoints)}</p></form>`
        : '';
    body =
      `<header><img src="${escape(iconUrl(t.icon, hub.baseUrl))}" alt="" width="48" height="48">` +
      `<div><h1>${escape(t.name)}</h1><p class="meta">${escape(t.industry)} · ${t.type === 'A' ? tr.supply : tr.demand}</p></div></header>` +
      `<ul class="tags">${t.tags.map((tag) => `<li>${escape(tag)}</li>`).join('')}</ul>` +
      `<p>${tr.user}${tr.colon}<strong id="user">${escape(model.user.clientUserId)}</strong></p>` +
      `<p>${escape(tr.pointsHere)}${tr.colon}<strong id="balance">${yuanAndPoints(model.user.balanceCents, tr.lang)}</strong></p>` +
      `<p id="outcome" role="status">${model.outcome.type === 'load' ? '' : escape(model.outcome.message)}</p>` +
      `<form method="post" action="${escape(action)}" data-action="submit">${hidden}<input type="hidden" name="action" value="submit">` +
      `<label for="message">${tr.message}</label><textarea id="message" name="message" maxlength="${MESSAGE_MAX}"></textarea>` +
      `<button type="submit">${tr.submit}</button></form>` +
      paid;
  } else {
    body = `<div class="error"><h1>${escape(model.title)}</h1><p id="outcome" role="status">${escape(model.outcome.message)}</p></div>`;
  }
  return (
    `<!doctype html><html lang="${tr.lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escape(model.title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/_assets/form.css"></head>` +
    `<body><main id="hub-form"${dataAttrs(model.shortCode, model.outcome)}>${body}</main>` +
    `<script src="/_assets/form.js"></script></body></html>`
  );
}

export function errorPage(
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
