// The demo page's own script: settings, the points panel and the live logs. The widget itself is the
// declarative <hub-embed> in index.html; this file only flips its attributes.
import { html, render } from 'lit';
import '../src/define.js';

interface LogRecord {
  createdAt: string;
  recordType: string;
  changeCents: number;
  balanceAfter: number;
  reason: string;
}
interface Points {
  user: string;
  balanceCents: number;
  walletCents: number;
  logs: { list: LogRecord[]; total: number; page: number; pageSize: number };
}
interface DemoEvent {
  id: number;
  at: string;
  event: string;
  user: string | null;
  summary: string;
  outcome?: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const widget = $('widget');
const controls = $<HTMLFormElement>('controls');
const yuan = (cents: number) => `¥${(cents / 100).toFixed(2)}`;
let page = 1;

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, { ...init, headers: { 'content-type': 'application/json' } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

// Settings persist in the URL so a reload (or a screenshot script) keeps them.
const params = new URLSearchParams(location.search);
for (const name of ['open-mode', 'theme', 'locale'] as const) {
  const value = params.get(name);
  if (value) (controls.elements.namedItem(name) as HTMLSelectElement).value = value;
}
function applySettings(): void {
  for (const name of ['open-mode', 'theme', 'locale'] as const) {
    const value = (controls.elements.namedItem(name) as HTMLSelectElement).value;
    widget.setAttribute(name, value);
    params.set(name, value);
  }
  const theme = widget.getAttribute('theme');
  const dark = theme === 'dark' || (theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  history.replaceState(null, '', `?${params}`);
}

async function loadSession(): Promise<void> {
  const session = await api<{ user: { id: string }; users: { id: string; name: string }[] }>('/api/session');
  render(
    session.users.map((u) => html`<option value=${u.id} ?selected=${u.id === session.user.id}>${u.name}</option>`),
    $('user'),
  );
}

async function loadPoints(): Promise<void> {
  const points = await api<Points>(`/api/points?page=${page}`);
  $('points-user').textContent = points.user;
  $('balance').textContent = yuan(points.balanceCents);
  $('wallet').textContent = yuan(points.walletCents);
  const pages = Math.max(1, Math.ceil(points.logs.total / points.logs.pageSize));
  $('page').textContent = `${points.logs.page} / ${pages}`;
  ($('prev') as HTMLButtonElement).disabled = page <= 1;
  ($('next') as HTMLButtonElement).disabled = page >= pages;
  const rows = points.logs.list.map(
    (r) => html`<tr>
      <td>${new Date(r.createdAt).toLocaleTimeString()}</td>
      <td>${r.recordType}</td>
      <td class=${r.changeCents >= 0 ? 'credit' : 'debit'}>${r.changeCents >= 0 ? '+' : '−'}${yuan(Math.abs(r.changeCents))}</td>
      <td>${yuan(r.balanceAfter)}</td>
      <td>${r.reason}</td>
    </tr>`,
  );
  render(
    rows.length
      ? rows
      : html`<tr><td colspan="5" class="empty">No points activity yet: recharge, or submit a form.</td></tr>`,
    $('logs'),
  );
}

const webhookEvents: DemoEvent[] = [];
async function pollEvents(): Promise<void> {
  const after = webhookEvents.at(-1)?.id ?? 0;
  const { events } = await api<{ events: DemoEvent[] }>(`/api/events?after=${after}`);
  if (events.length === 0) return;
  $('events-empty').hidden = true;
  webhookEvents.push(...events);
  render(
    webhookEvents
      .slice(-50)
      .reverse()
      .map(
        (e) =>
          html`<li class=${e.outcome ?? ''}><strong>${e.event}</strong> ${e.user ?? ''} · ${e.summary}${e.outcome ? ` → ${e.outcome}` : ''}</li>`,
      ),
    $('events'),
  );
  void loadPoints();
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
        ? `${(detail.tables as unknown[]).length} tables`
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
    if (type === 'hub-form-message' || type === 'hub-form-close') void loadPoints();
  });
}

controls.addEventListener('change', async (event) => {
  const target = event.target as HTMLSelectElement;
  if (target.name === 'user') {
    await api('/api/session', { method: 'POST', body: JSON.stringify({ user: target.value }) });
    // A new end user needs a new token: reload so the page-wide token cache starts empty.
    location.reload();
    return;
  }
  applySettings();
});

$('recharge').addEventListener('submit', async (event) => {
  event.preventDefault();
  const amount = Number(new FormData(event.target as HTMLFormElement).get('amount'));
  const status = $('points-status');
  try {
    const result = await api<{ amountCents: number; externalOrderId: string }>('/api/points/recharge', {
      method: 'POST',
      body: JSON.stringify({ amount_cents: amount }),
    });
    status.textContent = `Credited ${yuan(result.amountCents)} (order ${result.externalOrderId}).`;
    page = 1;
    await loadPoints();
  } catch (error) {
    status.textContent = `Recharge failed: ${(error as Error).message}`;
  }
});
$('prev').addEventListener('click', () => void ((page = Math.max(1, page - 1)), loadPoints()));
$('next').addEventListener('click', () => void (page++, loadPoints()));

applySettings();
void loadSession();
void loadPoints();
setInterval(() => void pollEvents().catch(() => undefined), 1500);
