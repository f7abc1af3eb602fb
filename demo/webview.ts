// The "native app" around the simulated WebView: a shell around the host kernel (hub-embed/host), as
// every host in this repository is, over the parent-frame transport so that it runs in a browser. It
// supplies the token (from the demo backend, as an app would get one from its own server), opens forms in
// its own "native sheet", and logs every bridge message. All DOM through Lit templates or textContent.
import { html, render } from 'lit';
import type { BridgeMessage } from '../src/bridge/index.js';
import { createHostKernel } from '../src/host/index.js';
import { shortenTokens } from './token-text.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const webview = $<HTMLIFrameElement>('webview');
const sheet = $<HTMLDialogElement>('sheet');
// The widget page is served by this demo server: its origin is the only one the host talks to.
const WIDGET_ORIGIN = location.origin;

interface LogLine {
  dir: 'in' | 'out' | 'bad';
  text: string;
}
const lines: LogLine[] = [];

function log(dir: LogLine['dir'], text: string): void {
  lines.unshift({ dir, text });
  lines.length = Math.min(lines.length, 200);
  render(
    lines.map(
      (line) => html`<li class=${line.dir} data-dir=${line.dir}>${line.dir === 'out' ? '→ ' : '← '}${line.text}</li>`,
    ),
    $('log'),
  );
}

/** A payload as the log and the status line both show it; tokens shortened so neither shows a usable one. */
const payload = (body: unknown) => shortenTokens(JSON.stringify(body ?? {}));

/** A compact line for the log. */
function describe(m: Partial<BridgeMessage>): string {
  const text = payload(m.kind === 'res' ? (m.ok ? m.result : m.error) : m.params);
  return `${m.kind} ${m.method ?? ''}${m.kind === 'res' ? (m.ok ? ' ok' : ' error') : ''} #${m.id} ${text}`.replace(
    /\s+/g,
    ' ',
  );
}

let formOrigin = '';

/** The token, from the app's own server; the API key stays on that server. */
async function token(): Promise<{ access_token: string; expires_in: number }> {
  await signedIn;
  const response = await fetch('/api/hub-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"reason":"initial"}',
  });
  if (!response.ok) throw new Error(`token endpoint: HTTP ${response.status}`);
  const body = await response.json();
  return body.data ?? body;
}

/** Table names by short code, from the page's table.selected events: a sheet is titled like its table. */
const tableNames = new Map<string, string>();

function openSheet(shortCode: string, url: string): void {
  const title = tableNames.get(shortCode) ?? shortCode;
  $('sheet-title').textContent = title;
  render(html`<iframe title=${`Form: ${title}`} src=${url}></iframe>`, $('sheet-body'));
  if (!sheet.open) sheet.showModal();
}

function closeSheet(): void {
  if (sheet.open) sheet.close();
  render(html``, $('sheet-body'));
}

/** The "native" sheet opens forms on the form site the app knows, when the page's control says so. */
async function openForm({ shortCode, url }: { shortCode: string; url: string }): Promise<boolean> {
  await formOriginKnown;
  const native = ($<HTMLFormElement>('controls').elements.namedItem('native') as HTMLInputElement).checked;
  // The token is in the URL: open it only on the form site the app knows.
  if (!native || new URL(url).origin !== formOrigin) return false;
  openSheet(shortCode, url);
  return true;
}

const kernel = createHostKernel({
  platform: 'demo-host',
  appVersion: '1.0.0',
  transport: 'parent',
  // The parent-frame channel is bound to the widget frame by source and origin (below): no nonce.
  nonce: false,
  handlers: { getToken: token, openForm },
  onAccepted: (m) => log('in', describe(m)),
  onRejected: (reason) => log('bad', `ignored (${reason})`),
  onEvent(event) {
    if (event.name === 'table.selected') tableNames.set(event.params.shortCode, event.params.name);
  },
  send(_script, json) {
    log('out', describe(JSON.parse(json) as BridgeMessage));
    webview.contentWindow!.postMessage(json, WIDGET_ORIGIN);
  },
});

addEventListener('message', (event) => {
  // The form page in the sheet reports its outcome to its parent, this app; only its origin counts.
  const sheetFrame = $('sheet-body').querySelector('iframe');
  if (sheetFrame && event.source === sheetFrame.contentWindow && event.origin === formOrigin) {
    log('in', `sheet form: ${JSON.stringify(event.data)}`);
    return;
  }
  // Everything else must come from the widget page itself: not the form iframe inside it, not others.
  if (event.source !== webview.contentWindow || event.origin !== WIDGET_ORIGIN) return;
  void kernel.receive(event.data);
});

/** A host-to-page request; its answer shows in the status line. */
function request(method: string, params: unknown = {}): void {
  if (!kernel.sessions.length) return void ($('host-status').textContent = 'No widget session yet.');
  kernel.request(method, params).then(
    (result) => ($('host-status').textContent = `${method}: ok ${payload(result)}`),
    (error: { code: string; message: string }) =>
      ($('host-status').textContent = `${method}: ${error.code} ${error.message}`),
  );
}

$('refresh').addEventListener('click', () => request('widget.refresh'));
$('close-form').addEventListener('click', () => request('form.close'));
$('set-tags').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = (($<HTMLFormElement>('set-tags').elements.namedItem('tags') as HTMLInputElement).value ?? '').trim();
  request('widget.setTags', {
    tags: value
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  });
});
$('sheet-close').addEventListener('click', closeSheet);
sheet.addEventListener('close', () => render(html``, $('sheet-body')));

// The app knows its form site from its own server's configuration, and signs its user in there (the
// demo backend has no fallback user) before it asks for a token.
const session = fetch('/api/session').then(
  (response) => response.json() as Promise<{ formUrl: string; user: unknown; users: { id: string }[] }>,
);
const formOriginKnown = session.then((known) => void (formOrigin = new URL(known.formUrl).origin));
const signedIn = session.then(async (known) => {
  if (known.user) return;
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: known.users[0]!.id }),
  });
  if (!response.ok) throw new Error(`sign-in: HTTP ${response.status}`);
});
