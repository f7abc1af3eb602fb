// The layers of docs/architecture.md ("Layers and their import rules"), enforced: a wrong import arrow
// fails CI instead of waiting for a reviewer.
//   browser code (core, components, bridge, the browser entries) never imports server/ or mock/;
//   server/ never imports components/;
//   mock/ takes only types from the rest of src/ (`import type`), so the simulator runs on its own,
//   except the rules it shares with core: leaf modules that import nothing (SHARED_WITH_MOCK).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
/** The simulator's sources, its own package: named `mock/...` here, the layer they were under src/. */
const MOCK = resolve(import.meta.dirname, '../../packages/hub-embed-mock/src');
const nameOf = (path: string) => (path.startsWith(MOCK + '/') ? `mock/${relative(MOCK, path)}` : relative(SRC, path));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Every relative import and re-export of a file, with the folder of src/ it reaches. */
function importsOf(file: string): Import[] {
  const source = readFileSync(file, 'utf8');
  const found: Import[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) {
    const target = resolve(dirname(file), match[3]!);
    found.push({ from: nameOf(file), to: nameOf(target), typeOnly: Boolean(match[2]) });
  }
  return found;
}

/** The layer of a path under src/: its first folder, or `entry` for the files at src/ root. */
const layerOf = (path: string) => (path.includes('/') ? path.split('/')[0]! : 'entry');
const BROWSER = new Set(['core', 'components', 'bridge', 'webview', 'react', 'vue', 'entry']);

const sources = [...files(SRC), ...files(MOCK)];
const all = sources.flatMap(importsOf);

/** The rules one copy of which both core and the simulator apply (issue 37, item 8). */
const SHARED_WITH_MOCK = ['core/link-rules.js', 'core/loopback.js', 'core/records.js'];

/**
 * The grader (mock/certify/) judges an integrator's notification links by the toolkit's own rule, so it
 * takes buildNotificationLink from core; the simulator itself does not.
 */
const CERTIFY_JUDGES_BY = ['core/token-links.js', 'server/client-address-headers.js'];
/** What certify shares with the toolkit as one list: a leaf, so the grader pulls in nothing more. */
const SHARED_WITH_CERTIFY = ['server/client-address-headers.js'];
const isCertify = (file: string) => file.startsWith('mock/certify/');

describe('import rules (docs/architecture.md, Layers and their import rules)', () => {
  it("hub-embed/server's modules take no Lit but its DOM-free css-tag.js: the entry loads where HTMLElement does not exist", () => {
    const reached = new Set<string>();
    const walk = (name: string): void => {
      if (reached.has(name)) return;
      reached.add(name);
      for (const i of all) if (i.from === name && !i.typeOnly) walk(i.to.replace(/\.js$/, '.ts'));
    };
    walk('server/index.ts');
    // The first view's markup, styles and texts come with it (its one import from outside server/).
    expect(reached.has('components/hub-embed/hub-embed.styles.ts')).toBe(true);
    const litImports = [...reached].flatMap((name) =>
      [
        ...readFileSync(join(SRC, name), 'utf8').matchAll(
          /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]((?:lit|lit-html|lit-element|@lit\/[\w-]+)(?:\/[^'"]*)?)['"]/gm,
        ),
      ]
        .map((match) => match[1]!)
        .filter((specifier) => specifier !== '@lit/reactive-element/css-tag.js')
        .map((specifier) => `${name} -> ${specifier}`),
    );
    expect(litImports).toEqual([]);
  });

  it('finds the imports it checks', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((i) => layerOf(i.from) === 'server' && i.to === 'core/errors.js')).toBe(true);
    expect(all.some((i) => layerOf(i.from) === 'components' && i.typeOnly)).toBe(true);
  });

  it('browser code never imports server/ or mock/', () => {
    const wrong = all.filter((i) => BROWSER.has(layerOf(i.from)) && ['server', 'mock'].includes(layerOf(i.to)));
    expect(wrong).toEqual([]);
  });

  it('browser code never imports host/: the native side of the bridge stays out of every page bundle', () => {
    const wrong = all.filter((i) => BROWSER.has(layerOf(i.from)) && layerOf(i.to) === 'host');
    expect(wrong).toEqual([]);
    // The walk sees host/ at all: its kernel takes the protocol from bridge/.
    expect(all.some((i) => layerOf(i.from) === 'host' && i.to === 'bridge/protocol.js')).toBe(true);
  });

  it("server/ never imports components/, and the first view only the DOM-free modules it writes the elements' markup from", () => {
    // The server's first view (issue 80) writes the elements' markup and styles from their own modules, which
    // hold no DOM and no element (docs/architecture.md): those alone.
    const FIRST_VIEW_READS = [
      'components/hub-table-card/card-markup-template.js',
      'components/hub-table-card/hub-table-card.styles.js',
      'components/hub-embed/hub-embed.styles.js',
      'components/hub-table-grid/hub-table-grid.styles.js',
      'components/hub-table-grid/matches.js',
      'components/hub-table-grid/screens.js',
      'components/hub-tag-filter/hub-tag-filter.styles.js',
      'components/shared.styles.js',
      'components/strings.js',
      'components/locales/other-locales.js',
    ];
    const wrong = all.filter(
      (i) =>
        (layerOf(i.from) === 'server' && layerOf(i.to) === 'components') ||
        (layerOf(i.from) === 'first-view' && layerOf(i.to) === 'components' && !FIRST_VIEW_READS.includes(i.to)),
    );
    expect(wrong).toEqual([]);
  });

  it('mock/ takes only types from the rest of src/, besides the leaf modules it shares with core', () => {
    const wrong = all.filter(
      (i) =>
        layerOf(i.from) === 'mock' &&
        layerOf(i.to) !== 'mock' &&
        // The rest of src/ only: openapi.json, the service's contract the simulator serves and certify
        // grades by, is data outside it and imports nothing.
        !i.to.startsWith('../') &&
        !i.typeOnly &&
        !SHARED_WITH_MOCK.includes(i.to) &&
        !(isCertify(i.from) && CERTIFY_JUDGES_BY.includes(i.to)),
    );
    expect(wrong).toEqual([]);
    for (const shared of SHARED_WITH_CERTIFY) {
      expect(all.some((i) => isCertify(i.from) && i.to === shared && !i.typeOnly)).toBe(true);
      expect(all.filter((i) => i.from === shared.replace(/\.js$/, '.ts'))).toEqual([]);
    }
    // Each shared module is used by the simulator and imports nothing, so the simulator pulls in no more.
    for (const shared of SHARED_WITH_MOCK) {
      expect(all.some((i) => layerOf(i.from) === 'mock' && i.to === shared && !i.typeOnly)).toBe(true);
      expect(all.filter((i) => i.from === shared.replace(/\.js$/, '.ts'))).toEqual([]);
    }
  });

  it('the link rules have one copy: no file but core/link-rules.ts defines them (issue 37, item 8)', () => {
    const copies = sources.filter((file) =>
      /function (decodeFully|hasDotSegment|namesToken)\b/.test(readFileSync(file, 'utf8')),
    );
    expect(copies.map(nameOf)).toEqual(['core/link-rules.ts']);
  });

  it('isRecord has one copy: no file but core/records.ts defines the JSON-object check (issue 62, item 4)', () => {
    const copies = sources.filter((file) =>
      /function isRecord\b|=== 'object' && \w+ !== null && !Array\.isArray\(\w+\)/.test(readFileSync(file, 'utf8')),
    );
    expect(copies.map(nameOf)).toEqual(['core/records.ts']);
  });

  it('the loopback rule has one copy: no file but core/loopback.ts spells a loopback address (issue 62, item 4)', () => {
    const copies = sources.filter((file) =>
      /\^\(?127|startsWith\('127\.'\)|=== '\[::1\]'|::1\$/.test(readFileSync(file, 'utf8')),
    );
    expect(copies.map(nameOf)).toEqual(['core/loopback.ts']);
  });

  it('the IP address parser has one copy: no file but server/ip.ts reads IPv6 groups or netmask bits (issue 62, item 4)', () => {
    const copies = sources.filter((file) =>
      /(?<!fromCharCode\()parseInt\(\w+, 16\)|toString\(2\)/.test(readFileSync(file, 'utf8')),
    );
    expect(copies.map(nameOf)).toEqual(['server/ip.ts']);
  });

  it('the mock host is a host: only hub-embed/host exports it, beside the kernel it is built on', async () => {
    const main = await import('../../src/index.js');
    const bridge = await import('../../src/bridge/index.js');
    const host = await import('../../src/host/index.js');
    expect(main).not.toHaveProperty('createMockHost');
    expect(bridge).not.toHaveProperty('createMockHost');
    expect(host).toHaveProperty('createMockHost');
    expect(host).toHaveProperty('createHostKernel');
  });

  it("tests take fixtures from @open-wc/testing, the design card's package, never its parts directly (issue 20)", () => {
    const tests = files(resolve(SRC, '../test')).filter((file) =>
      /from ['"]@open-wc\/testing-helpers['"]/.test(readFileSync(file, 'utf8')),
    );
    expect(tests.map((file) => relative(SRC, file))).toEqual([]);
  });
});
