/// <reference types="vite/client" />
// What the <script> bundles may pull in from the bridge: the plain one (src/script-tag.ts) none of it, the
// WebView one (src/webview.ts) the bridge but never the mock hosts. And what the bundled bridge does with
// the three hosts that take a string through a postMessage method: the same thing, through one channel.
// (test/e2e/script-tag.test.ts runs the built bundles themselves: the WebView one shakes hands, the plain
// one posts nothing.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect, flush, useBridgeFixtures } from './helpers.js';

// Vite inlines the sources as text, so this works in happy-dom and in Chromium alike.
const sources = import.meta.glob(['../../src/**/*.ts'], { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

/** Every module statically reachable from `entry` through value imports, side-effect imports and re-exports (not `import type`). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !(file in sources)) return;
    seen.add(file);
    for (const [, spec] of sources[file]!.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^;']*?from\s+)?'(\.[^']+)'/gm)) {
      const target = new URL(
        spec!.replace(/\.js$/, '.ts'),
        `file:///x/${file.replace(/^(\.\.\/)+/, '')}`,
      ).pathname.replace('/x/', '../../');
      visit(target);
    }
  };
  visit(entry);
  return seen;
}

describe('bridge in the <script> bundle', () => {
  it('the plain bundle (src/script-tag.ts) carries no bridge code at all', () => {
    const modules = reachable('../../src/script-tag.ts');
    expect(modules).toContain('../../src/components/hub-embed/hub-embed.ts');
    expect([...modules].filter((file) => file.includes('/bridge/'))).toEqual([]);
  });

  it('the WebView bundle (src/webview.ts) carries the bridge but never the mock host', () => {
    const modules = reachable('../../src/webview.ts');
    // The walk itself works: the widget and the bridge it plugs in are found.
    expect(modules).toContain('../../src/components/hub-embed/hub-embed.ts');
    expect(modules).toContain('../../src/bridge/bridge.ts');
    expect([...modules].filter((file) => /mock/.test(file))).toEqual([]);
    // The mock host is a host: hub-embed/host exports it, and no page entry reaches the host kernel.
    for (const entry of ['../../src/index.ts', '../../src/bridge/index.ts', '../../src/webview.ts']) {
      expect([...reachable(entry)].filter((file) => file.includes('/src/host/'))).toEqual([]);
    }
    expect(reachable('../../src/host/index.ts')).toContain('../../src/host/mock-host.ts');
  });
});

/**
 * A native host object as WebKit's `messageHandlers.NAME` is: its postMessage is a method that refuses
 * to run on anything but its own object ("Illegal invocation"), so a page that called it detached, or
 * with more than the one string, would fail on a real device and pass a loose test double.
 */
function strictHost() {
  const received: unknown[][] = [];
  const host = {
    postMessage(this: unknown, ...args: unknown[]) {
      if (this !== host) throw new TypeError('Illegal invocation');
      received.push(args);
    },
  };
  return { host, received };
}

/** Where each string-posting host puts its object on the page's window. */
const PLACES = {
  'react-native': (host: object) => ({ ReactNativeWebView: host }),
  webkit: (host: object) => ({ webkit: { messageHandlers: { hubEmbed: host } } }),
  android: (host: object) => ({ hubEmbed: host }),
} as const;

describe('React Native, webkit and Android/Flutter post alike', () => {
  const removeHosts = () => {
    for (const key of ['ReactNativeWebView', 'webkit', 'hubEmbed']) delete (window as any)[key];
  };
  useBridgeFixtures();
  afterEach(removeHosts);

  /** What the bridge posts to a strict host of `transport` when it connects: the handshake. */
  async function handshakeTo(transport: keyof typeof PLACES) {
    const { host, received } = strictHost();
    Object.assign(window, PLACES[transport](host));
    connect({ transport, readyTimeoutMs: 1000 });
    await flush();
    return received;
  }

  it.each(Object.keys(PLACES) as (keyof typeof PLACES)[])(
    '%s: the host object is called as the method owner, with one JSON string per message',
    async (transport) => {
      const received = await handshakeTo(transport);
      expect(received).toHaveLength(1);
      const [args] = received;
      expect(args).toHaveLength(1);
      expect(typeof args![0]).toBe('string');
      expect(JSON.parse(args![0] as string)).toMatchObject({ ns: 'hub-embed', kind: 'req', method: 'bridge.hello' });
    },
  );

  it('the three get the same message, written the same way', async () => {
    // The per-load session and the call id differ by design; everything else is one channel's output.
    const shapes = [];
    for (const transport of Object.keys(PLACES) as (keyof typeof PLACES)[]) {
      const [[json]] = (await handshakeTo(transport)) as [[string]];
      shapes.push(json.replace(/"(sid|id)":"[^"]*"/g, '"$1":"*"'));
      removeHosts();
    }
    expect(new Set(shapes).size).toBe(1);
  });

  it('a host object without a postMessage function is not a channel: nothing is posted to it', async () => {
    const seen: unknown[] = [];
    (window as any).hubEmbed = { postMessage: 'not a function', addEventListener: () => seen.push('listened') };
    const bridge = connect({ transport: 'android', readyTimeoutMs: 10 });
    await vi.advanceTimersByTimeAsync(50);
    expect(await bridge.ready).toBeNull();
    expect(seen).toEqual([]);
  });
});
