// React 19's `<hub-embed formUrl=…>` rendered on the server (react-dom/server), as an app's server sends it:
// the HTML carries the camel-cased properties as attributes, which the parser lowercases (`formurl`). Loaded
// in a page with the npm path as built (dist/define.js, bundled by Vite as an app bundles it) or with the
// <script> bundle, the widget must say which values arrived that way and name <HubEmbed>, not blame a
// setting that is there.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'vite';
import { DIST, SCRIPT, events, pageHtml, shownErrors, useHarness, type Harness } from './harness.js';
import { inEachEngine, type EnginePage } from './engines/index.js';

const e2e = useHarness();

/**
 * `import 'hub-embed/define'`, bundled by Vite with its Lit, as an app's build would: into one module, or
 * (`split`) into the app's module and a file for each lazy import, which the page then cannot load (its
 * server has no such file), as with the network gone.
 */
async function npmPathModule(split = false): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-react-server-tag-'));
  try {
    writeFileSync(join(dir, 'main.js'), "import 'hub-embed/define';\n");
    const result = await build({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      resolve: { alias: { 'hub-embed/define': join(DIST, 'define.js') } },
      build: {
        write: false,
        // Split, as an app's build: its entry module holds every static import; each lazy one is a file.
        ...(split
          ? { rolldownOptions: { input: join(dir, 'main.js') }, modulePreload: { polyfill: false } }
          : {
              lib: { entry: join(dir, 'main.js'), formats: ['es'], fileName: 'main' },
              rolldownOptions: { output: { codeSplitting: false } },
            }),
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) =>
      'output' in item ? item.output : [],
    );
    const chunks = outputs.filter((item) => item.type === 'chunk');
    const entry = chunks.find((chunk) => chunk.isEntry)!;
    if (split) {
      // The lazy files alone are left out: the app's module imports nothing statically.
      assert.deepEqual(entry.imports, []);
      assert.ok(
        entry.dynamicImports.some((file) => file.includes('later-half')),
        entry.dynamicImports.join(),
      );
    } else assert.equal(chunks.length, 1, 'one module');
    const code = entry.code;
    // Inlined in a <script>: its text must not end the element early.
    assert.ok(!/<\/script/i.test(code));
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** React 19's server HTML of `<hub-embed>` with its settings given as camel-cased properties. */
function reactServerTag(h: Harness): string {
  return renderToString(
    createElement('hub-embed', {
      tokenEndpoint: '/api/hub-token',
      baseUrl: h.baseUrl,
      formUrl: h.formUrl,
      locale: 'en',
    }),
  );
}

/** The one setup error such a tag shows: the lowercased attributes named, and <HubEmbed> as the fix. */
async function saysLowercased(page: EnginePage): Promise<void> {
  const shown = await shownErrors(page);
  assert.equal(shown.length, 1);
  const text = shown[0]!.replace(/\s+/g, ' ');
  assert.match(text, /^ ?Setup error: tokenendpoint, baseurl, formurl arrived as lowercased attributes/);
  assert.match(text, /Render <HubEmbed> from 'hub-embed\/react', or write token-endpoint, base-url, form-url\./);
  const errors = await events(page, 'hub-error');
  assert.deepEqual(
    errors.map((event) => (event.detail as { error: { kind: string } }).error.kind),
    ['config'],
  );
}

inEachEngine(() => {
  describe('a server-rendered React tag with the npm path', () => {
    let module = '';
    before(async () => {
      module = await npmPathModule();
    });

    it('a server-rendered React tag whose properties arrived as lowercased attributes says so and names <HubEmbed>', async () => {
      const tag = reactServerTag(e2e.harness);
      // What this test stands on: React writes the properties as attributes under their own names.
      assert.match(tag, /^<hub-embed tokenEndpoint="\/api\/hub-token" baseUrl="[^"]+" formUrl="[^"]+" locale="en">/);
      const w = await e2e.openPage('/react-server-tag.html', pageHtml(`<script type="module">${module}</script>`, tag));
      await saysLowercased(w.page);
    });

    it('the <script> bundle, as built, names the lowercased attributes of a server-rendered React tag as the npm path does', async () => {
      const w = await e2e.openPage('/react-server-tag-script.html', pageHtml(SCRIPT, reactServerTag(e2e.harness)));
      await saysLowercased(w.page);
    });

    it("a form half that cannot load leaves the refusal's own error, once", async () => {
      const h = e2e.harness;
      const tag = renderToString(createElement('hub-embed', { formUrl: h.formUrl, locale: 'en' }));
      const split = await npmPathModule(true);
      const w = await e2e.openPage(
        '/react-server-tag-offline.html',
        pageHtml(`<script type="module">${split}</script>`, tag),
      );
      const shown = await shownErrors(w.page);
      assert.deepEqual(
        shown.map((text) => text.replace(/\s+/g, ' ').trim()),
        ['Setup error: Set token-endpoint.'],
      );
      const errors = await events(w.page, 'hub-error');
      assert.deepEqual(
        errors.map((event) => (event.detail as { error: { kind: string } }).error.kind),
        ['config'],
      );
    });
  });
});
