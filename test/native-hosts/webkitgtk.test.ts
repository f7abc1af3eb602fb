// The iOS path in a real WebKit: WebKitGTK's register_script_message_handler_with_reply gives the page
// the same window.webkit.messageHandlers.hubEmbed.postMessage promise as iOS's
// WKScriptMessageHandlerWithReply. test/native-hosts/webkit/host.py is the native shell (it moves strings, as
// the Swift host of docs/webview-ios.md does); this process runs the host kernel behind it. The page is the
// real WebView bundle against the simulator; the protocol test vectors cross the real channel too.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };
import { createHostKernel, type HostEvent, type HostKernel } from '../../src/host/index.js';
import { WEBKIT_ENV } from '../e2e/engines/drivers.js';
import { pageHtml, serverToken, startHarness, waitFor, widget, type Harness } from '../e2e/harness.js';

const SHELL = fileURLToPath(new URL('./webkit/host.py', import.meta.url));
const PYTHON = '/usr/bin/python3';
const missing = ['/usr/bin/xvfb-run', PYTHON, '/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib'].filter(
  (path) => !existsSync(path),
);
// CI installs them (.ci/run); elsewhere the suite says what it lacks instead of failing.
const skip =
  missing.length && !process.env.CI
    ? `needs ${missing.join(', ')} (apt-get install xvfb python3-gi gir1.2-webkit2-4.1)`
    : false;

/** The WebKitGTK shell, spoken to over its stdin and stdout. */
class Shell {
  readonly messages: Array<{ id: number; data: string }> = [];
  readonly loads: string[] = [];
  started!: Promise<{ webkit: string; userAgent: string }>;
  private child: ChildProcessWithoutNullStreams;
  onMessage: (id: number, data: string) => void = () => {};

  constructor() {
    this.child = spawn('xvfb-run', ['-a', PYTHON, SHELL], {
      // WebKitGTK's bubblewrap sandbox cannot start as root inside a container; the page is our own.
      // Software compositing as in the end-to-end suites (WEBKIT_ENV: no llvmpipe under Xvfb).
      env: { ...process.env, ...WEBKIT_ENV, WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS: '1' },
    });
    this.child.stderr.on('data', (chunk) => {
      const text = String(chunk);
      if (!/Gtk-WARNING|dbind-WARNING|libEGL|MESA|ATTENTION/i.test(text)) process.stderr.write(text);
    });
    let started!: (info: { webkit: string; userAgent: string }) => void;
    this.started = new Promise((resolve) => (started = resolve));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      if (message.op === 'started') started(message);
      if (message.op === 'loaded') this.loads.push(message.url);
      if (message.op === 'message') {
        this.messages.push(message);
        this.onMessage(message.id, message.data);
      }
    });
  }

  send(command: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** Runs a script in the page: what evaluateJavaScript does. */
  run(script: string): void {
    this.send({ op: 'eval', script });
  }

  async quit(): Promise<void> {
    this.send({ op: 'quit' });
    await new Promise((resolve) => this.child.once('exit', resolve));
  }
}

/** Finds through every shadow root, as a user's tap does: the page's script, written for the shell to run. */
const CLICK_FIRST_CARD = `(function () {
  function find(root) {
    var hit = root.querySelector('[part~="card"]');
    if (hit) return hit;
    var all = root.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) if (all[i].shadowRoot) { hit = find(all[i].shadowRoot); if (hit) return hit; }
    return null;
  }
  find(document).click();
})();`;

describe('the iOS path in WebKitGTK: a WithReply script message handler around the host kernel', { skip }, () => {
  let h: Harness;
  let shell: Shell;
  let kernel: HostKernel;
  const events: HostEvent[] = [];
  const rejected: string[] = [];
  const opened: Array<{ url: string; shortCode: string }> = [];
  /** Every reply the kernel gave, by the page message's id in the envelope. */
  const replies = new Map<string, { ok: boolean; error?: { code: string } }>();
  let tokens = 0;

  before(async () => {
    h = await startHarness();
    const pageUrl = h.addPage(
      '/ios.html',
      pageHtml(
        '<script src="/dist/hub-embed-webview.iife.js"></script>',
        widget(h, { bridge: 'auto', 'token-endpoint': '' }),
      ),
    );
    shell = new Shell();
    kernel = createHostKernel({
      platform: 'ios',
      transport: 'webkit',
      // The vectors' nonce, so that their messages are this load's; a real app lets the kernel pick one.
      nonce: vectors.host.nonce,
      replies: 'return',
      allowedOrigins: [h.origin],
      handlers: {
        getToken: async () => {
          tokens++;
          return { access_token: await serverToken(h), expires_in: 600 };
        },
        openForm: (request) => {
          opened.push(request);
          return true;
        },
      },
      onEvent: (event) => events.push(event),
      onRejected: (reason) => rejected.push(reason),
      send: (script) => shell.run(script),
    });
    shell.onMessage = async (id, data) => {
      const reply = await kernel.receive(data);
      if (reply) {
        const answer = JSON.parse(reply);
        replies.set(answer.id, answer);
      }
      shell.send({ op: 'reply', id, json: reply ?? null });
    };
    const info = await shell.started;
    assert.match(info.userAgent, /AppleWebKit\/605\.1\.15/, 'the engine of WKWebView');
    shell.send({ op: 'load', url: pageUrl, marker: kernel.marker });
  });

  after(async () => {
    await shell?.quit();
    await h?.close();
  });

  it('handshake, auth.getToken from the app, and widget.ready through the real channel', async () => {
    await waitFor(
      () => events.filter((e) => e.name === 'widget.ready').length,
      (n) => n === 1,
      'widget.ready',
      30_000,
    );
    assert.equal(tokens, 1);
    assert.deepEqual(rejected, []);
    assert.equal(kernel.sessions.length, 1);
  });

  it('a card opens the form through form.open, with the token in its URL; the page reports it handled by the host', async () => {
    shell.run(CLICK_FIRST_CARD);
    await waitFor(
      () => opened.length,
      (n) => n === 1,
      'form.open at the app',
    );
    assert.ok(opened[0]!.url.startsWith(`${h.formUrl}/`), opened[0]!.url);
    assert.match(opened[0]!.url, /\?token=/);
    await waitFor(
      () => events.find((e) => e.name === 'form.opened'),
      (event) => event?.name === 'form.opened' && event.params.handledBy === 'host',
      'form.opened',
    );
    assert.ok(events.some((e) => e.name === 'table.selected'));
  });

  it('requests to the page (setTags, closeForm) come back answered', async () => {
    await kernel.setTags(['HR']);
    assert.equal(await kernel.closeForm(), false, 'the host opened the form, so the page has none open');
  });

  it('a forged message without the nonce is dropped and hands out nothing', async () => {
    const before = tokens;
    rejected.length = 0;
    shell.run(
      `window.webkit.messageHandlers.hubEmbed.postMessage(JSON.stringify({ns:'hub-embed',v:1,sid:'x',id:'forged',kind:'req',method:'auth.getToken'}));`,
    );
    await waitFor(
      () => rejected,
      (reasons) => reasons.includes('nonce'),
      'the refusal',
    );
    assert.equal(tokens, before);
    assert.equal(replies.has('forged'), false);
  });

  it('every protocol test vector, posted by the page through the real channel, gets its answer', async () => {
    rejected.length = 0;
    const post = (send: unknown) =>
      `window.webkit.messageHandlers.hubEmbed.postMessage(${JSON.stringify(typeof send === 'string' ? send : JSON.stringify(send))}).catch(function () {});`;
    shell.run(post(vectors.hello.send));
    await waitFor(
      () => replies.get('h0'),
      (reply) => !!reply,
      'the vectors’ hello',
    );
    for (const vector of vectors.cases) shell.run(post(vector.send));
    const drops = vectors.cases.filter((v) => 'drop' in v).map((v) => (v as { drop: string }).drop);
    await waitFor(
      () => rejected.length,
      (n) => n >= drops.length,
      'every hostile vector refused',
      10_000,
    );
    // The answers come as the app's handlers settle (getToken is async): wait for each, not only the refusals.
    const answered = vectors.cases
      .filter((v) => 'reply' in v || 'error' in v)
      .map((v) => (v.send as { id: string }).id);
    await waitFor(
      () => answered.filter((id) => !replies.has(id)),
      (missing) => missing.length === 0,
      'every vector’s answer',
      10_000,
    );
    assert.deepEqual([...rejected].sort(), [...drops].sort());
    for (const vector of vectors.cases) {
      const id = typeof vector.send === 'object' ? vector.send.id : undefined;
      if ('error' in vector) assert.equal(replies.get(id!)?.error?.code, vector.error, vector.name);
      // This app's own token and platform, not the vectors': the answer's shape is what crossed.
      if ('reply' in vector) assert.equal(replies.get(id!)?.ok, true, vector.name);
      if ('drop' in vector && id && id !== 'h999') assert.equal(replies.has(id), false, vector.name);
    }
  });
});
