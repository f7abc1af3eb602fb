// One meaning per name (issue 37, item 5; the design's house style): in src/components "host" is the native
// host only, and what a controller serves is its element. The lint enforces it (eslint.config.js); these
// tests put the old names back into a real controller and check that the lint refuses each one.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PageToHostRequests } from '../../src/bridge/methods.js';
import type { TokenLoad, TokenReason } from '../../src/core/token-source.js';
import type { parseLoad } from '../../src/server/prefetch.js';
import type { TokenRequest } from '../../src/host/types.js';
import type { HubEventDetails } from '../../src/components/events.js';
import type { HubElementMembers } from '../../src/components/members.js';
import { HubTagFilter } from '../../src/components/hub-tag-filter/hub-tag-filter.js';
import { TableLoader } from '../../src/components/hub-embed/table-loader.js';
import * as mock from '../../packages/hub-embed-mock/src/index.js';
import * as host from '../../src/host/index.js';
import { elementsManifest } from '../../scripts/manifest.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const LOADER = resolve(ROOT, 'src/components/hub-embed/table-loader.ts');

const NAME_RULES = ['id-denylist', 'no-restricted-syntax'];
/**
 * The project's lint config (eslint.config.js) running only the name rules. Neither reads types, so the
 * parser builds no TypeScript program for them (src/'s type-aware rules did, taking 40 s on the first
 * text); the rules and their options are the config's own.
 */
const eslint = new ESLint({
  cwd: ROOT,
  ruleFilter: ({ ruleId }) => NAME_RULES.includes(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

/** The name rules' findings for `text` linted as if it were the table loader's source. */
async function nameFindings(text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: LOADER });
  expect(result!.messages.filter((message) => message.fatal)).toEqual([]);
  return result!.messages
    .filter((message) => NAME_RULES.includes(message.ruleId!))
    .map((message) => `${message.line}: ${message.message}`);
}

describe('names in src/components', () => {
  const source = readFileSync(LOADER, 'utf8');

  it('the controller as it is breaks no name rule', async () => {
    expect(await nameFindings(source)).toEqual([]);
  });

  it('host names the native host only: a controller field #host is refused', async () => {
    const findings = await nameFindings(source.replaceAll('#element', '#host'));
    expect(findings.some((finding) => finding.includes("'#host' is restricted"))).toBe(true);
  });

  it('host names the native host only: a parameter or local called host is refused', async () => {
    const findings = await nameFindings(source.replace(/\belement\b/g, 'host'));
    expect(findings.some((finding) => finding.includes("'host' is restricted"))).toBe(true);
  });

  it('host names the native host only: a type for the element called ...Host is refused', async () => {
    const findings = await nameFindings(source.replaceAll('LoaderElement', 'LoaderHost'));
    expect(findings.some((finding) => finding.includes('name what a controller serves ...Element'))).toBe(true);
  });
});

describe('the simulator and the host double', () => {
  it('are told apart by name: createSimulator in hub-embed/mock, createMockHost in hub-embed/host', () => {
    expect(typeof mock.createSimulator).toBe('function');
    expect(typeof host.createMockHost).toBe('function');
    expect(mock).not.toHaveProperty('createMockHost');
    expect(host).not.toHaveProperty('createSimulator');
  });
});

describe('hub-embed/host', () => {
  it('exports each name once, from the module that defines it: the kernel module re-exports none of the types or scripts', async () => {
    expect(Object.keys(host).sort()).toEqual([
      'createHostKernel',
      'createMockHost',
      'decideNavigation',
      'originOf',
      'receiveScript',
    ]);
    const kernel = await import('../../src/host/kernel.js');
    expect(Object.keys(kernel)).toEqual(['createHostKernel']);
    expect(readFileSync(resolve(ROOT, 'src/host/kernel.ts'), 'utf8')).not.toMatch(/^export (type )?\{[^}]*\} from/m);
    // Each type is still the entry's: tsc fails here when one is dropped.
    expectTypeOf<host.HostKernel>().toEqualTypeOf<import('../../src/host/types.js').HostKernel>();
    expectTypeOf<
      [
        host.HostEvent,
        host.HostHandlers,
        host.HostKernelOptions,
        host.MethodHandler,
        host.NavigationOptions,
        host.PageRequestOptions,
        host.TokenRequest,
        host.NavigationDecision,
        host.MockHandlers,
        host.MockHost,
        host.MockHostOptions,
        host.MockTransport,
      ]
    >().not.toBeNever();
  });
});

describe('test folders', () => {
  it('no two folders of test/ differ only by a plural s (test/host mirrors src/host; native hosts run in test/native-hosts)', () => {
    const folders = readdirSync(resolve(ROOT, 'test'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((name) => folders.includes(`${name}s`))).toEqual([]);
  });
});

describe('exported types', () => {
  /** Every .ts file under `dir`. */
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = resolve(dir, entry.name);
      return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
    });
  }

  it("one meaning per name: no exported interface or type name is declared twice in src/ and the simulator's", () => {
    const declared = new Map<string, string[]>();
    for (const file of [...sources(resolve(ROOT, 'src')), ...sources(resolve(ROOT, 'packages/hub-embed-mock/src'))]) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)) {
        declared.set(name!, [...(declared.get(name!) ?? []), file.slice(ROOT.length + 1)]);
      }
    }
    expect([...declared].filter(([, files]) => files.length > 1)).toEqual([]);
  });
});

describe('token reasons', () => {
  // Checked by the type checker (npx tsc --noEmit, part of npm test): a word added to or renamed in one of
  // the three places and not the others fails to compile here.
  it('one vocabulary: core (TokenSource), the bridge (auth.getToken) and the host say the same words', () => {
    type BridgeReason = NonNullable<PageToHostRequests['auth.getToken']['params']['reason']>;
    // The bridge also accepts the one word pages before 0.2 sent (`expired`), which hosts read as `expiring`.
    expectTypeOf<Exclude<BridgeReason, 'expired'>>().toEqualTypeOf<TokenReason>();
    expectTypeOf<TokenRequest['reason']>().toEqualTypeOf<TokenReason>();
    expectTypeOf<TokenReason>().toEqualTypeOf<'initial' | 'expiring' | 'unauthorized'>();
  });
});

describe('a load', () => {
  // For tsc, as above. "Selection" is only the tags a user selected; what a load asks for is a load.
  it("one word: the token body's `load` is core's TokenLoad on both sides (the server no longer says Selection)", () => {
    expectTypeOf<ReturnType<typeof parseLoad>>().toEqualTypeOf<TokenLoad | undefined>();
  });
});

describe('prepare', () => {
  it("is the form half's word only (a form's page loaded before the click): no file outside src/components says it", () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = resolve(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && /\bprepar/i.test(readFileSync(path, 'utf8')))
          files.push(path.slice(ROOT.length + 1));
      }
    };
    walk(resolve(ROOT, 'src'));
    walk(resolve(ROOT, 'packages/hub-embed-mock/src'));
    expect(files.filter((file) => !file.startsWith('src/components/'))).toEqual([]);
  });
});

describe('transport', () => {
  it("is the bridge's word only: no file of packages/hub-embed-mock/src or src/server says it", () => {
    const saying = ['packages/hub-embed-mock/src', 'src/server'].flatMap((dir) =>
      readdirSync(resolve(ROOT, dir), { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => `${dir}/${entry.name}`)
        .filter((file) => /transport/i.test(readFileSync(resolve(ROOT, file), 'utf8'))),
    );
    expect(saying).toEqual([]);
  });

  it("hub-embed/mock exports none of the simulator's names from before 0.2.0 (removed: CHANGELOG.md, Removed)", () => {
    const removed = ['createMockHub', 'startMockHub', 'nodeWebhookTransport', 'fetchTransport'];
    expect(removed.filter((name) => name in mock)).toEqual([]);
    expect(mock.createSimulator).toBeTypeOf('function');
  });
});

describe('options', () => {
  interface Declaration {
    name: string;
    tagName?: string;
    members?: { name: string; kind: string; privacy?: string; static?: boolean }[];
    events?: { name: string; description?: string }[];
  }
  const manifest = elementsManifest().shipped as {
    modules: { declarations?: Declaration[] }[];
  };
  const declarations = manifest.modules.flatMap((module) => module.declarations ?? []);
  /** The public instance fields of the class called `name` in the custom elements manifest. */
  const fieldsOf = (name: string) =>
    declarations
      .find((declaration) => declaration.name === name)!
      .members!.filter((member) => member.kind === 'field' && !member.static && member.privacy !== 'private')
      .map((member) => member.name);

  it("'options' means configuration only: the tags on offer are `offered` (hub-ready's detail, <hub-tag-filter>, the table loader)", () => {
    // For tsc, as above: the detail and the bindings' property list are types.
    expectTypeOf<keyof HubEventDetails['hub-ready']>().toEqualTypeOf<'offered' | 'tables' | 'matching'>();
    expectTypeOf<HubElementMembers['hub-tag-filter']['properties']>().toEqualTypeOf<
      'offered' | 'tags' | 'locale' | 'strings'
    >();
    // At run time: the filter's reactive properties, and what the custom elements manifest (generated from the
    // source, and checked fresh by scripts/manifest.mjs --check) tells integrators.
    expect(Object.keys(HubTagFilter.properties)).toContain('offered');
    expect(Object.keys(HubTagFilter.properties)).not.toContain('options');
    expect(fieldsOf('HubTagFilter')).toContain('offered');
    expect(fieldsOf('HubTagFilter')).not.toContain('options');
    // The table loader is internal, so not in the manifest: its fields as an instance has them.
    const loader = new TableLoader({} as never, {} as never);
    expect(Object.keys(loader)).toContain('offered');
    expect(Object.keys(loader)).not.toContain('options');
    const ready = declarations
      .find((declaration) => declaration.tagName === 'hub-embed')!
      .events!.find((event) => event.name === 'hub-ready')!;
    expect(ready.description).toMatch(/^`\{offered, tables, matching\}`/);
  });
});
