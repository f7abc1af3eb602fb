// The native hosts of docs/webview-ios.md, docs/webview-android.md and docs/webview-flutter.md are files
// (examples/ios, examples/android, examples/flutter), and the pages quote them exactly. The Kotlin protocol runs on
// a JVM against every vector (test/native-hosts/android/kotlin-vectors.test.ts). No Swift or Dart toolchain installs
// from Debian or npm, so the Swift and Dart files, and every platform glue file, are held to the same rules here by
// reading them: each rule below is one the vectors or the hardening issues name, checked in the real file, against
// the limits, event names and navigation rules that src/ exports as data (no test reads src/ as text).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };
import { BRIDGE_ERROR_CODES } from '../../src/bridge/index.js';
import { HOST_REQUESTS, PAGE_EVENTS } from '../../src/bridge/methods.js';
import { MAX_MESSAGE_CHARS } from '../../src/bridge/protocol.js';
import { eventRefusal, TAG_LIMITS, TEXT_LIMITS } from '../../src/host/event-shapes.js';
import { BLOCKED_SCHEMES, ORIGIN_PATTERN, PLAIN_AUTHORITY } from '../../src/host/navigation.js';
import { NO_HOST_TEXTS } from '../../src/webview/host-link.js';
import { otherLocales } from '../../src/components/locales/other-locales.js';
import { withRegions } from '../../scripts/doc-regions.mjs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const doc = read('docs/webview.md');
/** The page of each native host, and the example files it is about. */
const HOST_PAGES = {
  'docs/webview-ios.md': ['examples/ios/HubEmbedProtocol.swift', 'examples/ios/HubEmbedWebView.swift'],
  'docs/webview-android.md': ['examples/android/HubEmbedProtocol.kt', 'examples/android/HubEmbedWebView.kt'],
  'docs/webview-flutter.md': [
    'examples/flutter/lib/hub_embed_protocol.dart',
    'examples/flutter/lib/hub_embed_view.dart',
  ],
  'docs/webview-wechat.md': ['examples/wechat/widget-page.html', 'examples/wechat/pages/hub/index.js'],
};
const PAGES = ['docs/webview.md', ...Object.keys(HOST_PAGES)];

/** The page-to-host events, the event map's names as data. */
const EVENTS: readonly string[] = PAGE_EVENTS;
/** The navigation rules of hub-embed/host: the patterns and schemes navigation.ts decides with. */
const NAV_PATTERNS = [ORIGIN_PATTERN.source.replaceAll('\\/', '/'), PLAIN_AUTHORITY.source];
const BLOCKED = [...BLOCKED_SCHEMES];

/** The reasons a host reports for each drop case of the vectors. */
const DROP_REASONS = [...new Set(vectors.cases.flatMap((v) => ('drop' in v && v.drop ? [v.drop] : [])))];
/** Reasons that name the event: the host writes them with the name filled in. */
const EVENT_REASONS = ['bad params: ', 'unknown event '];

/** What src/host/event-shapes.ts checks of each event's params: each text and its longest length, the tags. */
const TEXTS = Object.entries(TEXT_LIMITS);
const TAGS: [number, number] = [TAG_LIMITS.count, TAG_LIMITS.length];

const protocols = {
  'Kotlin (examples/android/HubEmbedProtocol.kt)': {
    code: read('examples/android/HubEmbedProtocol.kt'),
    checks: [
      'm.opt("ns") != "hub-embed"',
      '!isOne(m.opt("v"))',
      'if (m.opt("nonce") != nonce) return onRejected("nonce")',
      'kind == "req" || kind == "evt"',
      'id.length > 64',
      'sid !in sessions',
    ],
    rejects: (reason: string) => `onRejected("${reason}")`,
    name: '$name',
    text: (key: string, max: number) => (max === 500 ? `text(p, "${key}")` : `text(p, "${key}", ${max})`),
    tags: ([count, max]: [number, number]) => `strings(p.opt("tags"), ${count}, ${max})`,
    optional: ['if (!p.has("locale")) HubEvent.Ready(version)', 'takeIf { p.has("data") }'],
    selection: [
      'selection = tags.toList()',
      'if (event is HubEvent.TagsChanged) selection = event.tags',
      'selection?.let { setTags(it) }',
    ],
    parseNeverThrows: ['catch (error: JSONException)', 'catch (error: StackOverflowError)'],
    tokenRequest: [
      'data class HubTokenRequest(val reason: String, val previous: String? = null)',
      '"unauthorized" -> "unauthorized"',
      '"expiring", "expired" -> "expiring"',
      'else -> "initial"',
      'takeIf { reason != "initial" && it.length <= 4096 }',
      'tokens(tokenRequest(p))',
    ],
    escapes: ['replace("\\u2028", "\\\\u2028")', 'replace("\\u2029", "\\\\u2029")', 'replace("<", "\\\\u003c")'],
    queue: [
      'val asked = waiting.filter { it.value.sid != null }',
      'sessions.lastOrNull()?.let { ask(id, call, it) }',
      'for ((queuedId, call) in queued) ask(queuedId, call, sid)',
      'if (queued.values.none { it.method == "widget.setTags" }) selection?.let { setTags(it) }',
    ],
    timeouts: ['"$method timed out: no widget page said hello"', '"$method timed out"'],
    freshNonce: [
      'fun reload(nonce: String = randomNonce())',
      'this.nonce = nonce',
      'var nonce: String = nonce\n    private set',
    ],
  },
  'Swift (examples/ios/HubEmbedProtocol.swift)': {
    code: read('examples/ios/HubEmbedProtocol.swift'),
    checks: [
      'm["ns"] as? String == "hub-embed"',
      'CFGetTypeID(v) != CFBooleanGetTypeID(), v.doubleValue == 1',
      'guard m["nonce"] as? String == nonce else { return onRejected("nonce") }',
      'kind == "req" || kind == "evt"',
      'id.utf16.count <= 64',
      'guard hello || sessions.contains(sid)',
    ],
    rejects: (reason: string) => `onRejected("${reason}")`,
    name: '\\(name)',
    text: (key: string, max: number) => (max === 500 ? `text(p["${key}"])` : `text(p["${key}"], ${max})`),
    tags: ([count, max]: [number, number]) => `strings(p["tags"], count: ${count}, max: ${max})`,
    optional: ['if p["locale"] == nil { return .ready(version: version, locale: nil) }', 'let data = p["data"]'],
    selection: [
      'selection = tags\n',
      'if case .tagsChanged(let tags) = event { selection = tags }',
      'let selection { setTags(selection) }',
    ],
    parseNeverThrows: ['let value = try? JSONSerialization.jsonObject'],
    tokenRequest: [
      'struct HubTokenRequest: Equatable { let reason: String; let previous: String? }',
      'case "unauthorized": reason = "unauthorized"',
      'case "expiring", "expired": reason = "expiring"',
      'default: reason = "initial"',
      'reason != "initial" && $0.utf16.count <= 4096 ? $0 : nil',
      'try await getToken(Self.tokenRequest(p))',
    ],
    escapes: ['"\\u{2028}", with: "\\\\u2028"', '"\\u{2029}", with: "\\\\u2029"', '"<", with: "\\\\u003c"'],
    queue: [
      'let asked = waiting.filter { $0.value.sid != nil }',
      'if let sid = sessions.last { ask(id, sid: sid) }',
      'for (queuedId, _) in queued { ask(queuedId, sid: sid) }',
      'if !queued.contains(where: { $0.value.method == "widget.setTags" }), let selection { setTags(selection) }',
    ],
    timeouts: ['"\\(method) timed out: no widget page said hello"', '"\\(method) timed out"'],
    freshNonce: [
      'func reload(nonce: String = HubEmbedProtocol.randomNonce())',
      'self.nonce = nonce',
      'private(set) var nonce: String',
    ],
  },
  'Dart (examples/flutter/lib/hub_embed_protocol.dart)': {
    code: read('examples/flutter/lib/hub_embed_protocol.dart'),
    checks: [
      "m['ns'] != 'hub-embed'",
      "m['v'] != 1",
      "if (m['nonce'] != nonce) return onRejected?.call('nonce')",
      "kind == 'req' || kind == 'evt'",
      'id.length > 64',
      '!_sessions.contains(sid)',
    ],
    rejects: (reason: string) => `onRejected?.call('${reason}')`,
    name: '$name',
    text: (key: string, max: number) => (max === 500 ? `_text(p['${key}'])` : `_text(p['${key}'], ${max})`),
    tags: ([count, max]: [number, number]) => `_strings(p['tags'], ${count}, ${max})`,
    optional: [
      "p.containsKey('locale')",
      '(final String version, false, _) => WidgetReady(version)',
      "p.containsKey('data')",
    ],
    selection: [
      '_selection = List.unmodifiable(tags);',
      'if (event is TagsChanged) _selection = event.tags;',
      "if (!queued.values.any((call) => call.method == 'widget.setTags') && selection != null) unawaited(setTags(selection));",
    ],
    parseNeverThrows: ['m = jsonDecode(raw);\n    } catch (_) {'],
    tokenRequest: [
      'const HubTokenRequest(this.reason, [this.previous]);',
      "'unauthorized' => 'unauthorized',",
      "'expiring' || 'expired' => 'expiring',",
      "_ => 'initial',",
      "reason != 'initial' && previous is String && previous.length <= 4096 ? previous : null",
      'await getToken!(HubTokenRequest.fromParams(p))',
    ],
    escapes: [`replaceAll('\\u2028', r'\\u2028')`, `replaceAll('\\u2029', r'\\u2029')`, `replaceAll('<', r'\\u003c')`],
    queue: [
      'for (final entry in _waiting.entries) if (entry.value.sid != null) entry.key: entry.value',
      'if (_sessions.isNotEmpty) _ask(id, call, _sessions.last);',
      'queued.forEach((queuedId, call) => _ask(queuedId, call, sid));',
    ],
    timeouts: ["'$method timed out: no widget page said hello'", "'$method timed out'"],
    freshNonce: [
      'void reload([String? nonce]) {\n    _load++;\n    _nonce = nonce ?? randomNonce();',
      'String get nonce => _nonce;',
    ],
  },
};

/** Each fenced code block of a page: the marker comment right above it (if any), its language and its lines. */
const blocks = (page: string) =>
  [...page.matchAll(/^[ ]*(?:<!-- (.+?) -->\n[ ]*)?```(\w*)\n([\s\S]*?)^[ ]*```$/gm)].map((m) => ({
    marker: m[1],
    lang: m[2]!,
    lines: m[3]!.replace(/\n$/, '').split('\n'),
  }));
/** The lines without their common indent. */
const dedent = (lines: string[]) => {
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => /^ */.exec(line)![0].length));
  return lines.map((line) => line.slice(indent).trimEnd());
};
/** Whether `excerpt` is a run of consecutive lines of `file` (each side without its common indent). */
const isRunOf = (excerpt: string[], file: string[]) => {
  const want = dedent(excerpt).join('\n');
  return file.some((_, start) => {
    const run = file.slice(start, start + excerpt.length);
    return run.length === excerpt.length && dedent(run).join('\n') === want;
  });
};
/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

describe('docs/webview.md is the protocol reference, with one page per native host', () => {
  it('docs/webview.md keeps the protocol (messages, handshake, events, errors, limits, security, test vectors) and no host code', () => {
    for (const heading of [
      '## Protocol v1',
      '## Methods',
      '## Transport detection',
      '## Limits',
      '## Security',
      '## Test vectors',
    ])
      expect(doc, heading).toContain(`\n${heading}`);
    expect(doc).toContain('E_NO_HANDLER, E_TIMEOUT, E_CANCELLED, E_DENIED, E_UNSUPPORTED, E_VERSION, E_INTERNAL');
    expect(blocks(doc).filter((block) => ['kotlin', 'swift', 'dart'].includes(block.lang))).toEqual([]);
    for (const page of Object.keys(HOST_PAGES)) expect(doc, page).toContain(`](${page.slice('docs/'.length)})`);
  });

  for (const [page, files] of Object.entries(HOST_PAGES)) {
    describe(page, () => {
      const text = read(page);

      it('links to each of its example files', () => {
        for (const file of files) expect(text, file).toContain(`](../${file})`);
      });

      it('quotes only short excerpts, each a run of lines of the file it names (or a region of it), never code of its own', () => {
        const all = blocks(text);
        expect(all.length).toBeGreaterThanOrEqual(2);
        for (const block of all) {
          const where = block.lines[0];
          expect(block.marker, where).toMatch(/^(fragment|from): examples\//);
          expect(block.lines.length, where).toBeLessThanOrEqual(12);
          if (block.marker!.startsWith('fragment: ')) {
            const file = block.marker!.slice('fragment: '.length);
            expect(files, `${page} names ${file}`).toContain(file);
            expect(isRunOf(block.lines, read(file).split('\n')), `${page}: ${where}`).toBe(true);
          }
        }
        // The `from:` blocks: each equal to its region of the file.
        expect(withRegions(text)).toBe(text);
      });
    });
  }

  it('every link of the WebView pages reaches a file, and a heading where it names one', () => {
    let checked = 0;
    for (const page of PAGES) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, hash] = target!.split('#');
        const file = path
          ? new URL(path, new URL(`../../${page}`, import.meta.url))
          : new URL(`../../${page}`, import.meta.url);
        expect(existsSync(file), `${page} -> ${target}`).toBe(true);
        if (hash) {
          const headings = [...readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]!));
          expect(headings, `${page} -> ${target}`).toContain(hash);
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('says which hosts run against the vectors and which are only read', () => {
    expect(doc).toMatch(/Android \(Kotlin\).+\*\*Run\.\*\*/);
    expect(doc).toMatch(/iOS \(Swift\).+\*\*Read\.\*\* No Swift toolchain installs from Debian or npm/);
    expect(doc).toMatch(/Flutter \(Dart\).+\*\*Read\*\*.+no Dart SDK from Debian or npm/);
  });
});

describe('the Limits table of docs/webview.md gives the bounds the code enforces', () => {
  const rows = [...doc.matchAll(/^\| (.+?) \| (.+?) \| .+ \|$/gm)].map((m) => ({ what: m[1]!, bound: m[2]! }));
  const boundOf = (name: string) => rows.find((row) => row.what.includes(`\`${name}\``))?.bound;

  it('each event text, from TEXT_LIMITS', () => {
    for (const [key, max] of Object.entries(TEXT_LIMITS)) expect(boundOf(key), key).toBe(`${max} characters`);
  });

  it('the tags, from TAG_LIMITS, and the message, from MAX_MESSAGE_CHARS', () => {
    expect(boundOf('tags')).toBe(`${TAG_LIMITS.count} tags of ${TAG_LIMITS.length} characters each`);
    expect(MAX_MESSAGE_CHARS).toBe(4 * 1024 * 1024);
    expect(rows.find((row) => row.what === 'One message')?.bound).toMatch(/^4 Mi characters/);
  });
});

describe('the event limits exported as data are the ones hub-embed/host enforces', () => {
  /** Params of each event at their smallest valid shape. */
  const valid: Record<string, Record<string, unknown>> = {
    'widget.ready': { version: '1', locale: 'en' },
    'table.selected': { shortCode: 'a', name: 'n' },
    'tags.changed': { tags: [] },
    'form.opened': { shortCode: 'a', handledBy: 'page' },
    'form.closed': { shortCode: 'a' },
    'widget.error': { kind: 'k', message: 'm' },
    'form.message': { shortCode: 'a', data: null },
  };

  it('every event of PAGE_EVENTS has a shape, and no other name does', () => {
    expect([...PAGE_EVENTS].sort()).toEqual(Object.keys(valid).sort());
    for (const name of PAGE_EVENTS) expect(eventRefusal(name, valid[name]), name).toBeUndefined();
    expect(eventRefusal('toString', {})).toBe('unknown event toString');
  });

  it('each text of TEXT_LIMITS: its bound passes, one more is refused, in every event that has it', () => {
    const seen = new Set<string>();
    for (const name of PAGE_EVENTS) {
      for (const [key, max] of Object.entries(TEXT_LIMITS)) {
        if (!(key in valid[name]!)) continue;
        seen.add(key);
        expect(eventRefusal(name, { ...valid[name], [key]: 'x'.repeat(max) }), `${name} ${key}`).toBeUndefined();
        expect(eventRefusal(name, { ...valid[name], [key]: 'x'.repeat(max + 1) }), `${name} ${key}`).toBe(
          `bad params: ${name}`,
        );
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(TEXT_LIMITS).sort());
  });

  it('TAG_LIMITS bound tags.changed, and widget.setTags takes exactly as many tags, each as long', () => {
    const tags = (count: number, length: number) => Array.from({ length: count }, () => 'x'.repeat(length));
    const setTags = HOST_REQUESTS.get('widget.setTags')!;
    const { count, length } = TAG_LIMITS;
    expect(eventRefusal('tags.changed', { tags: tags(count, length) })).toBeUndefined();
    expect(setTags({ tags: tags(count, length) })).toBeTruthy();
    for (const over of [tags(count + 1, 1), tags(1, length + 1)]) {
      expect(eventRefusal('tags.changed', { tags: over })).toBe('bad params: tags.changed');
      expect(setTags({ tags: over })).toBeFalsy();
    }
  });
});

describe('native host protocol files follow the protocol test vectors', () => {
  for (const [name, host] of Object.entries(protocols)) {
    describe(name, () => {
      it('drops a message unless ns, v, this load’s nonce, kind, id and session all match (the vectors’ drop cases)', () => {
        for (const check of host.checks) expect(host.code).toContain(check);
        for (const reason of DROP_REASONS) {
          const named = EVENT_REASONS.find((start) => reason.startsWith(start));
          // `onRejected("bad params: ` and the host's own way of adding the name.
          expect(host.code, reason).toContain(named ? host.rejects(named).slice(0, -2) : host.rejects(reason));
        }
        // The order of the kernel: parse (foreign, malformed), then the nonce, then the session.
        const at = (reason: string) => host.code.indexOf(host.rejects(reason));
        expect(at('foreign')).toBeLessThan(at('nonce'));
        expect(at('nonce')).toBeLessThan(at('sid'));
      });

      it('the marker sets itself only in a document of the widget origin: no other page learns the nonce', () => {
        expect(host.code).toMatch(/["']if\(location\.origin===(\$\{|\\\()(Self\.)?scriptLiteral\(widgetOrigin\)/);
        expect(host.code).toContain('window.__HUB_EMBED_BRIDGE__=JSON.parse(');
      });

      it('hands the app’s getToken the reason (initial, expiring, unauthorized) and previous, as the vectors’ getToken cases say', () => {
        const reasons = new Set(
          vectors.cases.flatMap((v) => ('getToken' in v && v.getToken ? [v.getToken.reason] : [])),
        );
        expect([...reasons].sort()).toEqual(['expiring', 'initial', 'unauthorized']);
        expect(vectors.cases.some((v) => 'getToken' in v && v.getToken && 'previous' in v.getToken)).toBe(true);
        for (const line of host.tokenRequest) expect(host.code).toContain(line);
        // The page never sends `expired` now: a host that hands the app only initial/expired loses `unauthorized`.
        expect(host.code).not.toMatch(/["']expired["'] \? ["']expired["']/);
      });

      it('survives malformed JSON: parsing never throws, it drops the text as malformed', () => {
        for (const line of host.parseNeverThrows) expect(host.code).toContain(line);
      });

      it('answers with the vectors’ envelope: ns, v, sid, id, kind res, ok, result or error, and the nonce', () => {
        for (const key of Object.keys(vectors.hello.reply))
          expect(host.code, key).toMatch(new RegExp(`["']${key}["']`));
        for (const key of Object.keys(vectors.hello.reply.result))
          expect(host.code, key).toMatch(new RegExp(`["']${key}["']`));
        for (const key of Object.keys(vectors.host.token)) expect(host.code, key).toMatch(new RegExp(`["']${key}["']`));
        expect(host.code).toMatch(/["']res["']/);
        expect(host.code).toMatch(/["']error["']/);
      });

      it('escapes U+2028, U+2029 and < in what it evaluates', () => {
        for (const escape of host.escapes) expect(host.code).toContain(escape);
        expect(host.code).toContain('window.__hubEmbedReceive&&window.__hubEmbedReceive(');
      });

      it('answers the vectors’ errors and uses no code outside the protocol', () => {
        for (const vector of vectors.cases) if ('error' in vector) expect(host.code).toContain(vector.error);
        for (const code of new Set(host.code.match(/\bE_[A-Z_]+\b/g)))
          expect(BRIDGE_ERROR_CODES as readonly string[]).toContain(code);
      });

      it('hands every event of the event map to the app, typed, and refuses other shapes', () => {
        expect(EVENTS).toHaveLength(7);
        for (const event of EVENTS)
          expect(host.code, event).toMatch(new RegExp(`["']${event.replace('.', '\\.')}["']`));
        expect(host.code).toContain(host.rejects(`bad params: ${host.name}`));
        expect(host.code).toContain(host.rejects('unknown event ').slice(0, -2));
      });

      it('checks each event’s params as hub-embed/host does (src/host/event-shapes.ts): every text’s length, the tags, what may be absent', () => {
        expect(TEXTS.length).toBeGreaterThanOrEqual(6);
        for (const [key, max] of TEXTS) expect(host.code, `${key} ≤ ${max}`).toContain(host.text(key, max));
        expect(TAGS).toEqual([100, 200]);
        expect(host.code).toContain(host.tags(TAGS));
        for (const line of host.optional) expect(host.code).toContain(line);
      });

      it('keeps the selection (the user’s tags.changed, the app’s setTags) and sends it to each new session after the hello’s answer', () => {
        for (const line of host.selection) expect(host.code).toContain(line);
        const restore = host.selection.at(-1)!;
        expect(host.code.indexOf(restore)).toBeGreaterThan(host.code.search(/["']config["']/));
      });

      it('asks the page (widget.setTags, widget.refresh, form.close) and settles each with the page’s answer', () => {
        for (const method of ['widget.setTags', 'widget.refresh', 'form.close']) expect(host.code).toContain(method);
        expect(host.code).toContain('E_TIMEOUT');
        expect(host.code).toContain('the page loaded again');
        expect(host.code).toContain(host.rejects('no such request'));
      });

      // Issue 61 item 1: the vectors' sequences run against the kernel and the Kotlin host; this file holds
      // each host to the lines that make them pass.
      it('queues refresh, setTags and closeForm until the page’s hello, with the kernel’s timeout and errors (the vectors’ sequences)', () => {
        for (const line of host.queue) expect(host.code, line).toContain(line);
        for (const line of host.timeouts) expect(host.code, line).toContain(line);
        // The messages the vectors expect, with the method filled in as the file writes it.
        const expected = new Set(
          vectors.sequences.cases.flatMap((v) =>
            v.expect.flatMap((e) => ('message' in e && e.code === 'E_TIMEOUT' ? [e.message] : [])),
          ),
        );
        const written = host.timeouts.map((t) => t.slice(1, -1).replace(/\$method|\\\(method\)/, 'widget.refresh'));
        expect([...expected].sort()).toEqual([...written].sort());
        expect(host.code).toContain('the page loaded again');
        // The refusal before a hello is gone: a call then waits, as <HubEmbedView>'s does.
        expect(host.code).not.toContain('no widget page has said hello yet');
        expect(host.code).not.toContain('E_UNSUPPORTED before a hello');
      });

      it('draws a fresh nonce on every load (the vectors’ sequences)', () => {
        for (const line of host.freshNonce) expect(host.code, line).toContain(line);
        expect(host.code).not.toMatch(/(let|val|final String) nonce\b/);
        expect(vectors.sequences.cases.some((v) => v.expect.some((e) => 'nonce' in e && e.nonce === '$fresh'))).toBe(
          true,
        );
      });

      it('keeps navigation to allowed origins with the rules of hub-embed/host', () => {
        for (const pattern of NAV_PATTERNS) expect(host.code).toContain(pattern);
        for (const scheme of BLOCKED) expect(host.code).toMatch(new RegExp(`["']${scheme}["']`));
        expect(host.code).toMatch(/about:blank/);
      });
    });
  }
});

describe('the Swift and Dart protocol files are twins of the Kotlin one, which runs every vector', () => {
  /** Each error a file answers ("E_DENIED: no signed-in user"), interpolations written {}. */
  const answers = (code: string) =>
    new Set(
      [...code.matchAll(/["'](E_[A-Z_]+)["'],\s*(?:message:\s*)?["']([^"']+)["']/g)]
        .filter((m) => !m[2]!.startsWith('E_'))
        .map((m) => `${m[1]}: ${m[2]!.replace(/\\\(\w+\)|\$\{\w+\}|\$\w+/g, '{}')}`),
    );
  /** Each reason a file drops with, the event's name it fills in written {}. */
  const reasons = (code: string) =>
    new Set(
      [...code.matchAll(/onRejected(?:\?\.call)?\(["']([^"']+)["']\)/g)].map((m) =>
        m[1]!.replace(/\\\(.*\)$|\$\{.*\}$|\$\w+$/, '{}'),
      ),
    );
  const [kotlin, ...others] = Object.values(protocols).map((host) => host.code);

  it('answers the same errors with the same messages, and drops with the same reasons', () => {
    // The timeouts' two messages are held by the sequences' test above (a condition picks between them).
    expect(answers(kotlin!).size).toBeGreaterThanOrEqual(5);
    expect(reasons(kotlin!)).toContain('bad params: {}');
    expect(reasons(kotlin!)).toContain('unknown event {}');
    for (const code of others) {
      expect(answers(code)).toEqual(answers(kotlin!));
      expect(reasons(code)).toEqual(reasons(kotlin!));
    }
  });
});

describe('native host glue files', () => {
  it('Android: marker and listener for the widget origin only; the JavascriptInterface fallback gets the nonce too', () => {
    const code = read('examples/android/HubEmbedWebView.kt');
    expect(code).toContain(
      'markerScript = WebViewCompat.addDocumentStartJavaScript(view, protocol.marker(widgetOrigin, nonce = markerNonce), setOf(widgetOrigin))',
    );
    // Each load's marker is in place before the load; the protocol takes up its nonce as the page starts.
    expect(code).toMatch(
      /if \(atDocumentStart\) \{\n\s+protocol\.reload\(markerNonce\)\n\s+armMarker\(view\)\n\s+\} else protocol\.reload\(\)/,
    );
    expect(code).toContain('markerScript?.remove()\n    markerNonce = HubEmbedProtocol.randomNonce()');
    expect(code).toContain('addWebMessageListener(view, "hubEmbed", setOf(widgetOrigin))');
    expect(code).toContain('isMainFrame && sourceOrigin.toString() == widgetOrigin');
    // Without document-start scripts, the marker (with the nonce) still reaches the widget page.
    expect(code).toContain(
      'if (!atDocumentStart && onWidget) view.evaluateJavascript(protocol.marker(widgetOrigin), null)',
    );
    expect(code).toContain('protocol.announce()');
    expect(code).toMatch(
      /main\.post \{ if \(onWidget && view == webView && HubEmbedNavigation\.originOf\(view\.url \?: ""\) == widgetOrigin\) protocol\.receive\(json\) \}/,
    );
    expect(code).toContain('protocol.reload()');
    expect(code).toContain('HubEmbedNavigation.decide(request.url.toString(), allowedOrigins)');
    expect(code).toContain('onCreateWindow');
    expect(code).toContain('CustomTabsIntent');
    expect(code).toMatch(/host\.setTags\(listOf\("HR"\)\) \{ answer ->/);
    expect(code).toContain('is HubEvent.TagsChanged -> api.saveFilter(event.tags)');
    expect(code).toContain('getToken: (request: HubTokenRequest, done: (HubToken?) -> Unit) -> Unit,');
    expect(code).toContain('api.hubToken(request.reason, request.previous)');
  });

  it('Android: back goes to the protocol first (the page’s form), then to the app; a touch is passed on', () => {
    const code = read('examples/android/HubEmbedWebView.kt');
    expect(code).toContain('fun back(): Boolean = protocol.back()');
    expect(code).toContain('view.setOnTouchListener { _, _ -> protocol.touched(); false }');
    expect(code).toMatch(
      /addCallback\(activity\) \{\n\s+if \(host\.back\(\)\) return@addCallback\n\s+isEnabled = false\n\s+activity\.onBackPressedDispatcher\.onBackPressed\(\)\n\s+isEnabled = true/,
    );
  });

  it('Android: a renderer that dies is handled (true), and a new WebView in its place loads the page again', () => {
    const code = read('examples/android/HubEmbedWebView.kt');
    // Every WebViewClient of the app, the probe's too: one that is not would take the app down.
    const handlers = [
      ...code.matchAll(
        /override fun onRenderProcessGone\((\w+): WebView, detail: RenderProcessGoneDetail\): Boolean \{([\s\S]*?)\n\s*\}/g,
      ),
    ];
    expect(handlers).toHaveLength(2);
    for (const [, , body] of handlers) {
      expect(body).toContain('return true');
      expect(body).not.toContain('return false');
    }
    expect(code).toContain('if (view == webView) replaceDeadWebView(view) else view.destroy()');
    const replace = code.slice(code.indexOf('private fun replaceDeadWebView'));
    for (const step of [
      'protocol.reload()',
      'parent?.removeView(dead)',
      'dead.destroy()',
      'webView = fresh',
      'parent.addView(fresh, index, layout)',
      'url?.let { load(it) }',
    ])
      expect(replace, step).toContain(step);
    // Set up once per WebView: the new one gets the marker, the listener and the clients too.
    expect(code).toContain('if (setUpFor != webView) setUp(webView)');
  });

  it('iOS: marker at document start in the main frame; messages from the widget origin’s main frame only', () => {
    const code = read('examples/ios/HubEmbedWebView.swift');
    expect(code).toContain(
      'WKUserScript(source: protocolHost.marker(widgetOrigin: widgetOrigin, nonce: markerNonce), injectionTime: .atDocumentStart, forMainFrameOnly: true)',
    );
    expect(code).toContain('scripts.removeAllUserScripts()');
    expect(code).toContain('markerNonce = HubEmbedProtocol.randomNonce()');
    expect(code).toContain('frame.isMainFrame, HubEmbedNavigation.originOf(from) == widgetOrigin');
    // Each load's nonce: the protocol takes up the marker's as the load commits, and the next load gets its own.
    expect(code).toMatch(
      /didCommit navigation: WKNavigation!\) \{\n\s+protocolHost\.reload\(nonce: markerNonce\)\n\s+armMarker\(\)/,
    );
    expect(code).toContain('HubEmbedNavigation.decide(url.absoluteString, allowedOrigins: allowedOrigins)');
    expect(code).toContain('createWebViewWith');
    expect(code).toContain('return nil');
    expect(code).toContain('SFSafariViewController');
    expect(code).toContain('removeScriptMessageHandler(forName: "hubEmbed")');
    expect(code).toContain('host.setTags(["HR"])');
    expect(code).toContain('case .tagsChanged(let tags): api.saveFilter(tags)');
    expect(code).toContain('api.hubToken(reason: request.reason, previous: request.previous)');
  });

  it('iOS: a web content process that ends loads the page again', () => {
    const code = read('examples/ios/HubEmbedWebView.swift');
    expect(code).toMatch(
      /func webViewWebContentProcessDidTerminate\(_ webView: WKWebView\) \{\n\s+protocolHost\.reload\(\)\n\s+if webView\.url != nil \{ webView\.reload\(\) \} else if let lastURL \{ load\(lastURL\) \}/,
    );
    expect(code).toContain('WKNavigationDelegate');
    expect(code).toContain('webView.navigationDelegate = self');
  });

  // Issue 35 item 3: the Flutter host gave the user's token to any page the WebView went to.
  describe('Flutter: marker and answers only on the widget’s origin, navigation kept to allowed origins', () => {
    const view = read('examples/flutter/lib/hub_embed_view.dart');
    const protocol = read('examples/flutter/lib/hub_embed_protocol.dart');

    it('the marker sets itself only in a document of the widget origin, whichever path brings it', () => {
      expect(protocol).toContain("return 'if(location.origin===${scriptLiteral(widgetOrigin)})'");
      // Both paths build the script with marker(): the document-start one with the next load's nonce.
      expect(view).toContain('controller.addDocumentStartJavaScript(protocol.marker(widgetOrigin, nonce: nonce))');
      expect(protocol).toContain(
        "final json = jsonEncode({'transport': transport, 'v': 1, 'nonce': nonce ?? this.nonce});",
      );
    });

    it('the marker is at document start where webview_flutter 4.15+ and the platform offer it, armed before each load with a fresh nonce', () => {
      expect(read('examples/flutter/pubspec.yaml')).toMatch(/^ {2}webview_flutter: \^4\.15\.0$/m);
      // Armed before the first load, as a document-start script runs from the next document on.
      expect(view).toMatch(
        /Future<void> load\(String url\) async \{\n(?:\s+\/\/.*\n)*\s+if \(_markerNonce == null\) await _armMarker\(\);\n\s+await controller\.loadRequest\(Uri\.parse\(url\)\);/,
      );
      // The old marker goes before the new one comes, and its nonce is fresh; no nonce is held unless a
      // marker carrying it is in place.
      expect(view).toMatch(
        /Future<void> _armMarker\(\) async \{\n\s+final old = _markerScript;\n\s+_markerScript = null;\n\s+_markerNonce = null;\n\s+await old\?\.remove\(\);\n\s+final nonce = HubEmbedProtocol\.randomNonce\(\);/,
      );
      expect(view).toMatch(/_markerNonce = nonce;\n\s+\} on UnsupportedError \{/);
      // Each load takes up the nonce its marker carried and arms the next load's.
      expect(view).toMatch(
        /onPageStarted: \(url\) \{\n(?:\s+\/\/.*\n)*\s+final armed = _markerNonce;\n\s+protocol\.reload\(armed\);\n\s+if \(armed != null\) \{\n\s+_armMarker\(\);/,
      );
      expect(protocol).toMatch(
        /void reload\(\[String\? nonce\]\) \{\n\s+_load\+\+;\n\s+_nonce = nonce \?\? randomNonce\(\);/,
      );
    });

    it('without document-start scripts the marker comes at onPageStarted and again at onPageFinished', () => {
      expect(view).toMatch(
        /\} else if \(HubEmbedNavigation\.originOf\(url\) == widgetOrigin\) \{\n\s+_run\(protocol\.marker\(widgetOrigin\)\);/,
      );
      expect(view).toMatch(
        /onPageFinished: \(url\) async \{\n\s+if \(!await _onWidget\(\)\) return;\n\s+if \(_markerNonce == null\) _run\(protocol\.marker\(widgetOrigin\)\);/,
      );
      expect(view).toContain('protocol.announce();');
    });

    it('receives only while the current page is on the widget origin, and every script it runs checks the origin', () => {
      expect(view).toContain(
        "..addJavaScriptChannel('hubEmbed', onMessageReceived: (message) => _receive(message.message))",
      );
      expect(view).toContain('if (await _onWidget()) protocol.receive(text);');
      expect(view).toContain("HubEmbedNavigation.originOf(await controller.currentUrl() ?? '') == widgetOrigin");
      expect(view).toContain("controller.runJavaScript('if(location.origin===$origin){$script}');");
      expect(view).toContain('send: (script) => _run(script)');
      // Nothing else runs scripts in the page.
      expect(view.match(/runJavaScript\(/g)).toHaveLength(1);
    });

    it('the main frame stays on the widget’s and the form site’s origins; other links leave', () => {
      expect(view).toContain('onNavigationRequest: _decide');
      expect(view).toContain('}) : allowedOrigins = {widgetOrigin, formOrigin}');
      expect(view).toContain('switch (HubEmbedNavigation.decide(request.url, allowedOrigins))');
      expect(view).toMatch(
        /case NavigationChoice\.external:\n\s+launchUrl\(Uri\.parse\(request\.url\), mode: LaunchMode\.externalApplication\);\n\s+return NavigationDecision\.prevent;/,
      );
      expect(view).toMatch(/case NavigationChoice\.blocked:\n\s+return NavigationDecision\.prevent;/);
    });

    it('shows one host request with its answer', () => {
      expect(view).toContain("final answer = await host.setTags(['HR']);");
      expect(view).toContain('TagsChanged(:final tags) => widget.api.saveFilter(tags)');
      expect(view).toContain('required Future<HubToken?> Function(HubTokenRequest request) getToken,');
      expect(view).toContain('widget.api.hubToken(request.reason, request.previous)');
    });

    it('Android back closes the page’s form first, as the Kotlin host and <HubEmbedView> do', () => {
      // The protocol's rules, line for line the Kotlin ones that test:android runs on a JVM.
      expect(protocol).toContain('if (!byPage || !_formBelieved) _formOpen = byPage;');
      expect(protocol).toContain('if (byPage) _formBelieved = true;');
      expect(protocol).toContain('if (event is FormClosed) _formOpen = false;');
      expect(protocol).toContain("if (!(answer.ok && result is Map && result['closed'] == true)) _formOpen = false;");
      expect(protocol).toMatch(
        /void reload\(\[String\? nonce\]\) \{\n\s+_load\+\+;\n\s+_nonce = nonce \?\? randomNonce\(\);\n\s+_formOpen = false;/,
      );
      expect(view).toContain('onPageForm: (open) => pageForm.value = open,');
      // The glue: the route cannot pop while the page's form is open; back asks the page to close it.
      expect(view).toContain('canPop: !formOpen,');
      expect(view).toContain('if (!didPop) host.back();');
      expect(view).toContain('onPointerDown: (_) => host.protocol.touched(),');
      expect(view).toContain('Widget build(BuildContext context) => HubEmbedBack(host: host);');
    });

    it('an iOS web content process that ends loads the page again', () => {
      expect(view).toMatch(
        /onWebResourceError: \(error\) \{[\s\S]*?if \(error\.errorType == WebResourceErrorType\.webContentProcessTerminated\) \{\n\s+protocol\.reload\(\);\n\s+controller\.reload\(\);/,
      );
    });
  });
});

// That the page really reads it is test/native-hosts/react-native.test.ts's Android case.
it('docs/webview.md says where the page reads the early carrier hubEmbedNonce', () => {
  expect(doc).toContain('window.ReactNativeWebView.injectedObjectJson()');
});

describe('page snippets carry a viewport meta (iOS lays a page without one out at 980 px)', () => {
  const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1';
  const pages = {
    'docs/webview.md': doc,
    'docs/webview-wechat.md': read('docs/webview-wechat.md'),
    'examples/wechat/README.md': read('examples/wechat/README.md'),
  };
  for (const [file, text] of Object.entries(pages)) {
    it(file, () => {
      const blocks = [...text.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]!);
      const pageBlocks = blocks.filter((block) => /<hub-embed|<script|<html/i.test(block));
      expect(pageBlocks.length).toBeGreaterThan(0);
      for (const block of pageBlocks) expect(block).toContain(VIEWPORT);
    });
  }
});

describe('docs/webview.md on React Native’s injected object', () => {
  // That the page really waits for the marker is test/native-hosts/react-native.test.ts's Android case.
  it('says that React Native’s injected object is readable by every frame and carries no nonce', () => {
    expect(doc).toContain('window.ReactNativeWebView.injectedObjectJson()');
    expect(doc).toContain('hubEmbedMarker: true');
    expect(doc).not.toContain('hubEmbedNonce');
  });
});

// Issue 44 item 8: a developer searches the docs for what the widget shows.
it('docs/webview.md quotes the no-host text exactly as the widget shows it, in each language', () => {
  const tables = [...Object.values(NO_HOST_TEXTS), ...Object.values(otherLocales)];
  const texts = new Set(tables.map((table) => table['no-host']));
  expect(texts.size).toBe(5);
  for (const text of texts) expect(doc).toContain(`"${text}"`);
});

// Issue 61 item 4: Android 15 (targetSdk 35) draws apps edge to edge and Android 16 removes the opt-out; the
// window then no longer resizes for the keyboard, so adjustResize keeps nothing clear.
describe('edge to edge, keyboard included', () => {
  const reactNative = read('docs/react-native.md');
  const android = read('docs/webview-android.md');
  const kotlin = read('examples/android/HubEmbedWebView.kt');
  const screen = read('examples/react-native/App.tsx');
  const recipe = read('examples/react-native/hub-embed.html');

  it('the React Native page and docs/webview-android.md handle the keyboard and system bars by insets, not adjustResize', () => {
    for (const text of [reactNative, android]) {
      expect(text).not.toMatch(/set `android:windowSoftInputMode="adjustResize"`/);
      // adjustResize is named only to say it no longer keeps anything clear.
      for (const [sentence] of text.matchAll(/[^.]*adjustResize[^.]*\./g))
        expect(sentence).toMatch(/does not keep|keeps nothing clear/);
    }
    expect(reactNative).toContain('a `SafeAreaView` of\n  react-native-safe-area-context on the four edges');
    expect(reactNative).toContain('`behavior="padding"` for the keyboard');
    expect(android).toContain("androidx's `WindowInsets`");
    expect(android).toContain("the keyboard's (`ime()`)");
  });

  it('the example screen keeps clear of the bars and the keyboard by their insets', () => {
    expect(screen).toContain("import { SafeAreaView } from 'react-native-safe-area-context';");
    expect(screen).toContain("<SafeAreaView style={{ flex: 1 }} edges={['top', 'right', 'bottom', 'left']}>");
    expect(screen).toContain('<KeyboardAvoidingView style={{ flex: 1 }} behavior="padding">');
  });

  it('the Kotlin host sample keeps clear by androidx WindowInsets: the bars, the cutout and the keyboard (ime)', () => {
    const setUp = kotlin.slice(kotlin.indexOf('private fun setUp('));
    expect(setUp.slice(0, 300)).toContain('keepClearOfBarsAndKeyboard(view)');
    for (const line of [
      'ViewCompat.setOnApplyWindowInsetsListener(view) { v, insets ->',
      'insets.getInsets(WindowInsetsCompat.Type.systemBars() or WindowInsetsCompat.Type.displayCutout())',
      'val keyboard = insets.getInsets(WindowInsetsCompat.Type.ime())',
      'setMargins(bars.left, bars.top, bars.right, maxOf(bars.bottom, keyboard.bottom))',
      'ViewCompat.requestApplyInsets(view)',
    ])
      expect(kotlin, line).toContain(line);
  });

  it('the page recipes’ viewport meta asks for viewport-fit=cover and interactive-widget=resizes-content', () => {
    const want =
      'content="width=device-width, initial-scale=1, viewport-fit=cover, interactive-widget=resizes-content"';
    expect(recipe).toContain(want);
    expect(reactNative).toContain(want);
    expect(doc).toContain(want);
  });

  it('the WebView docs and the <HubEmbedView> page recipe name the form half beside the bundle', () => {
    expect(doc).toContain('hub-embed-webview.form.js');
    expect(reactNative).toContain('its form half\n   `hub-embed-webview.form.js` in the same folder');
  });
});
