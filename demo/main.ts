// The demo page's own script: sign-in, settings, the points panel and the live logs. The widget itself
// is the declarative <hub-embed> in index.html; this file signs the user in, then defines the elements,
// and afterwards only flips the widget's attributes.
import { html, nothing, render } from 'lit';
import { localeFor } from '../src/core/locale.js';

interface LogRecord {
  createdAt: string;
  recordType: string;
  changeCents: number;
  balanceAfter: number;
  reason: string;
  status: string;
}
interface Points {
  user: string;
  walletCents: number;
  /** null until the service knows the user (its first token exchange). */
  service: {
    balanceCents: number;
    logs: { list: LogRecord[]; total: number; page: number; pageSize: number };
  } | null;
}
interface DemoEvent {
  id: number;
  event: string;
  user: string | null;
  summary: string;
  outcome?: string;
}
interface Session {
  user: { id: string; name: string } | null;
  users: { id: string; name: string }[];
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const widget = $('widget');
const controls = $<HTMLFormElement>('controls');
const status = $('points-status');
let page = 1;

/** Every amount on the page is written this one way: yuan with two decimals, points in brackets. */
// Written as the simulator's form page writes amounts: yuan with two decimals, grouped points in brackets.
const money = (cents: number) => `¥${(cents / 100).toFixed(2)} (${cents.toLocaleString('en-US')} points)`;

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, { ...init, headers: { 'content-type': 'application/json' } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

const post = <T>(path: string, body: unknown) => api<T>(path, { method: 'POST', body: JSON.stringify(body) });

/** The widget attributes a visitor can set: each one's values and their labels, the first the default (or DEFAULTS'). */
const SETTINGS = {
  'open-mode': { modal: 'modal', inline: 'inline', navigate: 'navigate' },
  theme: { light: 'light', dark: 'dark', auto: 'auto' },
  locale: { en: 'English', 'zh-CN': '简体中文', 'zh-TW': '繁體中文', ja: '日本語', ko: '한국어' },
};
const setting = (name: string) => controls.elements.namedItem(name) as HTMLSelectElement;

/**
 * The demo opens in the browser's language, by the widget's own rule for a tag (localeFor,
 * src/core/locale.ts): Traditional or Simplified Chinese, Japanese, Korean, else English.
 */
const DEFAULTS: Partial<Record<keyof typeof SETTINGS, string>> = {
  locale: localeFor(navigator.language),
};

// Settings persist in the URL so a reload (or a screenshot script) keeps them.
const params = new URLSearchParams(location.search);
for (const [name, choices] of Object.entries(SETTINGS)) {
  render(
    Object.entries(choices).map(([value, label]) => html`<option value=${value}>${label}</option>`),
    setting(name),
  );
  const value = params.get(name) ?? DEFAULTS[name as keyof typeof SETTINGS];
  if (value && value in choices) setting(name).value = value;
}
function applySettings(): void {
  for (const name of Object.keys(SETTINGS)) {
    const value = setting(name).value;
    widget.setAttribute(name, value);
    params.set(name, value);
  }
  const theme = widget.getAttribute('theme');
  const dark = theme === 'dark' || (theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  history.replaceState(null, '', `?${params}`);
}

/** The backend has no fallback user: a first visit signs in as the first demo user. */
async function signIn(): Promise<void> {
  let session = await api<Session>('/api/session');
  if (!session.user)
    session = { ...session, ...(await post<Pick<Session, 'user'>>('/api/session', { user: session.users[0]!.id })) };
  render(
    session.users.map((u) => html`<option value=${u.id} ?selected=${u.id === session.user?.id}>${u.name}</option>`),
    $('user'),
  );
}

function logLine(record: LogRecord) {
  // A record that moved nothing (a failed charge, a charge the app's wallet paid) is not a "+¥0.00" credit.
  const change =
    record.changeCents === 0
      ? html`<span class="neutral">no change</span>`
      : html`<span class=${record.changeCents > 0 ? 'credit' : 'debit'}
          >${record.changeCents > 0 ? '+' : '−'}${money(Math.abs(record.changeCents))}</span
        >`;
  return html`<li class=${record.status === 'failed' || record.recordType === 'failed' ? 'failed' : ''}>
    <span class="what"
      ><time datetime=${record.createdAt}>${new Date(record.createdAt).toLocaleTimeString()}</time>
      <strong>${record.recordType}</strong></span
    >
    ${change}
    <span class="reason">${record.reason} · balance after ${money(record.balanceAfter)}</span>
  </li>`;
}

async function loadPoints(): Promise<void> {
  const points = await api<Points>(`/api/points?page=${page}`);
  $('points-user').textContent = points.user;
  $('wallet').textContent = money(points.walletCents);
  const service = points.service;
  $('balance').textContent = service ? money(service.balanceCents) : 'none yet';
  const pages = service ? Math.max(1, Math.ceil(service.logs.total / service.logs.pageSize)) : 1;
  $('page').textContent = `${service?.logs.page ?? 1} / ${pages}`;
  ($('prev') as HTMLButtonElement).disabled = page <= 1;
  ($('next') as HTMLButtonElement).disabled = page >= pages;
  const rows = service?.logs.list ?? [];
  render(
    rows.length
      ? rows.map(logLine)
      : html`<li class="empty">
          ${
            service
              ? 'No points activity yet: press Pay in a form.'
              : `The service does not know ${points.user} yet: it will at the widget's first token exchange.`
          }
        </li>`,
    $('logs'),
  );
}

function showError(what: string, error: unknown): void {
  status.textContent = `${what}: ${(error as Error).message}`;
}

const webhookEvents: DemoEvent[] = [];
async function pollEvents(): Promise<void> {
  const after = webhookEvents.at(-1)?.id ?? 0;
  const { events } = await api<{ events: DemoEvent[] }>(`/api/events?after=${after}`);
  // Two polls may overlap (the timer and a charge): keep each event once.
  const fresh = events.filter((event) => event.id > (webhookEvents.at(-1)?.id ?? 0));
  if (fresh.length === 0) return;
  $('events-empty').hidden = true;
  webhookEvents.push(...fresh);
  render(
    webhookEvents
      .slice(-50)
      .reverse()
      .map(
        (e) => html`<li class=${e.outcome ?? nothing}><strong>${e.event}</strong> ${e.user ?? ''} · ${e.summary}</li>`,
      ),
    $('events'),
  );
  await loadPoints();
}

const widgetEvents: string[] = [];
for (const type of [
  'hub-ready',
  'hub-tags-change',
  'hub-table-select',
  'hub-form-open',
  'hub-form-close',
  'hub-form-message',
  'hub-error',
] as const) {
  widget.addEventListener(type, (event) => {
    const detail = (event as CustomEvent<Record<string, unknown>>).detail ?? {};
    const summary =
      type === 'hub-ready'
        ? `${detail.matching as number} matching of ${(detail.tables as unknown[]).length} tables`
        : type === 'hub-error'
          ? String((detail.error as Error).message)
          : JSON.stringify(detail, (key, value) =>
              key === 'table' ? (value as { short_code: string }).short_code : value,
            );
    widgetEvents.unshift(`${type} ${summary}`);
    render(
      widgetEvents.slice(0, 30).map((line) => html`<li>${line}</li>`),
      $('widget-events'),
    );
    const data = detail.data as { type?: string; ok?: boolean } | undefined;
    if (type === 'hub-form-message' && data?.type === 'charge') void explainCharge(data.ok === true);
    else if (type === 'hub-form-message' || type === 'hub-form-close' || type === 'hub-ready')
      void loadPoints().catch((error: unknown) => showError('Points', error));
  });
}

/**
 * The form page only learns "declined"; the wallet's own answer says why. The service waited for that
 * answer before it answered the form, so the backend's event is already there.
 */
async function explainCharge(paid: boolean): Promise<void> {
  try {
    await pollEvents();
    const decision = webhookEvents.findLast((event) => event.event === 'billing_deduct');
    status.textContent = `Pay: ${decision?.summary ?? `${paid ? 'paid' : 'declined'}, but no billing webhook arrived.`}`;
    await loadPoints();
  } catch (error) {
    showError('Points', error);
  }
}

controls.addEventListener('change', (event) => {
  const target = event.target as HTMLSelectElement;
  if (target.name !== 'user') return applySettings();
  // A new end user needs a new token: reload so the page-wide token cache starts empty.
  post('/api/session', { user: target.value }).then(
    () => location.reload(),
    (error: unknown) => showError('Switching user failed', error),
  );
});

/** "5", "5.5" or "5.50" yuan as integer cents, through strings only (5.1 * 100 is not 510). */
function yuanToCents(text: string): number | undefined {
  const match = /^([0-9]{1,5})(?:\.([0-9]{1,2}))?$/.exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined;
}

$('recharge').addEventListener('submit', (event) => {
  event.preventDefault();
  const cents = yuanToCents(String(new FormData(event.target as HTMLFormElement).get('amount')));
  if (!cents) return void (status.textContent = 'Top-up: enter yuan with at most two decimals, e.g. 5.00.');
  post<{ amountCents: number; walletCents: number }>('/api/points/recharge', { amount_cents: cents })
    .then(async (result) => {
      status.textContent = `Added ${money(result.amountCents)}: the app wallet now holds ${money(result.walletCents)}.`;
      page = 1;
      await loadPoints();
    })
    .catch((error: unknown) => showError('Top-up failed', error));
});
$('prev').addEventListener('click', () => {
  page = Math.max(1, page - 1);
  void loadPoints().catch((error: unknown) => showError('Points', error));
});
$('next').addEventListener('click', () => {
  page++;
  void loadPoints().catch((error: unknown) => showError('Points', error));
});

applySettings();
try {
  await signIn();
  // Defined only now: the widget's first token request must already carry the session cookie.
  await import('../src/define.js');
  await loadPoints();
} catch (error) {
  showError('The demo backend did not answer', error);
}
setInterval(() => void pollEvents().catch(() => undefined), 1500);
