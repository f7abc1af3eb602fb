// The framework bindings, src/react/ and src/vue/ (with the member map they share, src/components/members.ts),
// from the custom elements manifest, so that their props and events are the elements' own and cannot drift.
// scripts/manifest.mjs writes them (the build runs it) and checks them (`--check`, CI's manifest lane).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const HEADER = '// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.\n';

/** The elements with what the bindings need: public instance fields, their attributes, and events. */
export function elementsOf(manifest) {
  const elements = [];
  for (const module of manifest.modules)
    for (const d of module.declarations ?? []) {
      if (!d.customElement || !d.tagName) continue;
      const fields = (d.members ?? []).filter(
        (m) => m.kind === 'field' && !m.static && m.privacy !== 'protected' && m.privacy !== 'private',
      );
      elements.push({
        tag: d.tagName,
        className: d.name,
        summary: d.summary ?? '',
        properties: fields.map((f) => f.name),
        // Attributes whose name differs from the property (token-endpoint for tokenEndpoint): JSX users
        // copy them from HTML.
        renamedAttributes: fields
          .filter((f) => f.attribute && f.attribute !== f.name)
          .map((f) => ({ attribute: f.attribute, property: f.name })),
        // Every attribute: all that React 18 sets on a custom element is attributes.
        attributes: fields.filter((f) => f.attribute).map((f) => f.attribute),
        events: (d.events ?? []).map((e) => e.name),
      });
    }
  elements.sort((a, b) => (a.tag < b.tag ? -1 : 1));
  if (elements.length === 0) throw new Error('custom-elements.json lists no elements.');
  return elements;
}

const pascal = (kebab) => kebab.replace(/(^|-)([a-z])/g, (_, __, c) => c.toUpperCase());
const quote = (s) => `'${s}'`;
const union = (names) => (names.length ? names.map(quote).join(' | ') : 'never');

function reactIndex(elements) {
  const lines = [
    HEADER,
    '/**',
    ' * hub-embed/react: a React component per element, made with @lit/react (React 18 and 19, optional peers): properties as',
    ' * props, events as `onHubReady`-style props with typed `event.detail`. Like every binding it registers',
    ' * nothing: `import "hub-embed/define"` once registers the elements (a component mounted without it says so in',
    ' * the console).',
    ' * For React 19 JSX such as `<hub-embed onhub-ready={...}>`, see the types in ./jsx.ts.',
    ' */',
    "import * as React from 'react';",
    "import { createComponent, type EventName } from '@lit/react';",
    `import { ${elements.map((e) => `${e.className} as ${e.className}Element`).join(', ')} } from '../index.js';`,
    "import { requirePeer } from '../core/peer-floors.js';",
    "import { sayIfUnregistered } from '../components/unregistered.js';",
    "import type { HubElementMembers } from '../components/members.js';",
    "import type { HubComponent } from './jsx.js';",
    "export type * from './jsx.js';",
    '',
    '// React is an optional peer of any version (an app that never imports this installs with its own); this',
    "// binding says at once when the app's is older than it needs.",
    "requirePeer('hub-embed/react', 'react', React.version);",
    '',
    '/** An event name carrying the detail type the element declares for it. */',
    'const event = <N extends keyof GlobalEventHandlersEventMap>(name: N) =>',
    '  name as EventName<GlobalEventHandlersEventMap[N]>;',
    '',
    'const noSubscription = () => () => undefined;',
    '/** False on the server and while hydrating server HTML; true after, and at once in an app without server HTML. */',
    'const useHydrated = () => React.useSyncExternalStore(noSubscription, () => true, () => false);',
    '',
    '/**',
    ' * The component of an element, rendering its tag in the browser only, after hydration: a tag in server HTML',
    ' * would be upgraded by `hub-embed/define` before hydration, and start without the props that React sets',
    ' * after it (a setup error in the console, or a first load without the tags).',
    " * Typed as HubComponent, from the elements' own members: the declarations need no @lit/react, so that a",
    ' * type-only import of this entry compiles without it (`skipLibCheck: false`).',
    ' */',
    'function inBrowser<Tag extends keyof HubElementMembers>(',
    '  tag: Tag,',
    '  displayName: string,',
    '  Component: React.ElementType,',
    '): HubComponent<Tag> {',
    '  const InBrowser = React.forwardRef((props: object, ref) => {',
    "    React.useEffect(() => sayIfUnregistered('hub-embed/react', tag, `<${displayName}>`), []);",
    '    return useHydrated() ? React.createElement(Component, { ...props, ref }) : null;',
    '  });',
    '  InBrowser.displayName = displayName;',
    '  return InBrowser;',
    '}',
  ];
  for (const e of elements) {
    lines.push(
      '',
      `/** \`<${e.tag}>\`${e.summary ? `: ${e.summary}` : ''} */`,
      `export const ${e.className} = inBrowser('${e.tag}', '${e.className}', createComponent({`,
      `  tagName: '${e.tag}',`,
      `  elementClass: ${e.className}Element,`,
      '  react: React,',
      `  displayName: '${e.className}',`,
      '  events: {',
      ...e.events.map((name) => `    on${pascal(name)}: event('${name}'),`),
      '  },',
      '}));',
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * One map from each tag to its element class, public properties, renamed attributes and events: the React
 * JSX types and the Vue types are both mapped over it, so neither file lists an element's members again.
 */
function membersFile(elements) {
  const lines = [
    HEADER,
    // Each element's own module (one folder per element, named after its tag): no import climbs a layer.
    ...elements.map((e) => `import type { ${e.className} } from './${e.tag}/${e.tag}.js';`),
    '',
    '/**',
    ' * What the framework bindings type for each tag: the element class, its public properties, the attributes',
    ' * whose name differs from their property (`token-endpoint`; JSX and templates copy them from HTML), all its',
    ' * attributes, and its events.',
    ' */',
    'export interface HubElementMembers {',
  ];
  for (const e of elements)
    lines.push(
      `  '${e.tag}': {`,
      `    element: ${e.className};`,
      `    properties: ${union(e.properties)};`,
      `    renamedAttributes: ${union(e.renamedAttributes.map((a) => a.attribute))};`,
      `    attributes: ${union(e.attributes)};`,
      `    events: ${union(e.events)};`,
      '  };',
    );
  lines.push('}');
  return lines.join('\n') + '\n';
}

function reactJsx(elements) {
  const lines = [
    HEADER,
    '// JSX types for the tags and for the components of hub-embed/react. React 19 sets properties on custom elements',
    '// and listens to `on<event-name>` props: <hub-embed tokenEndpoint="/api/hub-token" onhub-ready={...} />. React 18',
    '// sets attributes only, as text, and listens to nothing: there a tag takes its attributes alone.',
    "import type * as React from 'react';",
    "import type { HubElementMembers } from '../components/members.js';",
    '',
    "/** Whether the app's React types are React 19's or later (`useActionState` came with 19). */",
    "export type HubReact19 = 'useActionState' extends keyof typeof React ? true : false;",
    '',
    '/**',
    ' * React 19: the JSX props of a tag: its properties, its renamed attributes, and `onhub-ready`-style events.',
    ' * (`& keyof` changes nothing for a real tag; TypeScript needs it to see that through the generic map.)',
    ' */',
    'export type HubJsxProperties<Tag extends keyof HubElementMembers, M extends HubElementMembers[Tag] = HubElementMembers[Tag]> =',
    "  React.DetailedHTMLProps<React.HTMLAttributes<M['element']>, M['element']> &",
    "  Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & { [A in M['renamedAttributes']]?: string } & {",
    "    [K in M['events'] as `on${K}`]?: (event: GlobalEventHandlersEventMap[K]) => void;",
    '  };',
    '',
    '/**',
    ' * React 18: the JSX props of a tag: its attributes, as text (`token-endpoint="…"`, `tags="a,b"`). A property',
    ' * (`tokenEndpoint`) is not one, and an `onhub-ready` handler is `never`: React 18 would drop both silently.',
    ' */',
    'export type HubJsxAttributes<Tag extends keyof HubElementMembers, M extends HubElementMembers[Tag] = HubElementMembers[Tag]> =',
    "  React.DetailedHTMLProps<React.HTMLAttributes<M['element']>, M['element']> & { [A in M['attributes']]?: string } & {",
    "    [K in M['events'] as `on${K}`]?: never;",
    '  };',
    '',
    "/** The JSX props of a tag under the app's React: HubJsxProperties on React 19 and later, else HubJsxAttributes. */",
    'export type HubJsxProps<Tag extends keyof HubElementMembers> =',
    '  HubReact19 extends true ? HubJsxProperties<Tag> : HubJsxAttributes<Tag>;',
    '',
    ...elements.map((e) => `export type ${e.className}JsxProps = HubJsxProps<'${e.tag}'>;`),
    '',
    '/** `hub-ready` as `HubReady`. */',
    'type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;',
    '',
    '/**',
    ' * The props of a component of hub-embed/react (React 18 and 19): the HTML attributes, the properties, set as',
    ' * properties, and `onHubReady`-style handlers.',
    ' */',
    'export type HubComponentProps<Tag extends keyof HubElementMembers, M extends HubElementMembers[Tag] = HubElementMembers[Tag]> =',
    "  Omit<React.HTMLAttributes<M['element']>, M['properties'] | `on${Pascal<M['events']>}`> &",
    "  Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & {",
    "    [K in M['events'] as `on${Pascal<K>}`]?: (event: GlobalEventHandlersEventMap[K]) => void;",
    '  };',
    '',
    '/** A component of hub-embed/react; its ref is the element. */',
    'export type HubComponent<Tag extends keyof HubElementMembers> = React.ForwardRefExoticComponent<',
    "  HubComponentProps<Tag> & React.RefAttributes<HubElementMembers[Tag]['element']>",
    '>;',
    '',
    "declare module 'react' {",
    '  // eslint-disable-next-line @typescript-eslint/no-namespace',
    '  namespace JSX {',
    '    interface IntrinsicElements {',
    ...elements.map((e) => `      '${e.tag}': ${e.className}JsxProps;`),
    '    }',
    '  }',
    '}',
  ];
  return lines.join('\n') + '\n';
}

function vueIndex(elements) {
  return [
    HEADER,
    '/**',
    ' * hub-embed/vue: types for the five tags in Vue templates (props, attributes and `@hub-*` events, checked by',
    ' * vue-tsc), `isCustomElement` for the compiler option that makes Vue leave the tags to the browser, and a',
    ' * component per tag (`<HubEmbed>`, typed the same) for templates compiled ahead of time (.vue files).',
    ' * Side-effect free (vite.config.ts imports it); register the elements with `import "hub-embed/define"`: a',
    ' * component mounted without it, and a template compiled in the browser, say so in the console.',
    ' */',
    "import { defineComponent, h, onMounted, type EmitFn, type HTMLAttributes, type PublicProps } from 'vue';",
    "import { sayIfUnregistered } from '../components/unregistered.js';",
    "import type { HubElementMembers } from '../components/members.js';",
    '',
    '/** The tags this package defines. */',
    `export const HUB_TAGS = [${elements.map((e) => quote(e.tag)).join(', ')}] as const;`,
    '',
    '/** For `compilerOptions.isCustomElement` (in @vitejs/plugin-vue: `template.compilerOptions`). */',
    '// Called by the template compiler: in the browser when Vue compiles templates there, where an unregistered',
    '// tag is said once.',
    'export function isCustomElement(tag: string): boolean {',
    '  const ours = (HUB_TAGS as readonly string[]).includes(tag);',
    "  if (ours) sayIfUnregistered('hub-embed/vue', tag, 'A template');",
    '  return ours;',
    '}',
    '',
    '/** A tag as Vue types a component: `$props` for the template, `$emit` for `@event`. */',
    'type VueCustomElement<Tag extends keyof HubElementMembers, M extends HubElementMembers[Tag] = HubElementMembers[Tag]> =',
    "  new () => M['element'] & {",
    "    $props: HTMLAttributes & Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & PublicProps;",
    "    $emit: EmitFn<{ [K in M['events']]: (event: GlobalEventHandlersEventMap[K]) => void }>;",
    '  };',
    '',
    "declare module 'vue' {",
    '  interface GlobalComponents {',
    ...elements.map((e) => `    '${e.tag}': VueCustomElement<'${e.tag}'>;`),
    '  }',
    '}',
    '',
    '/**',
    ' * The component of a tag: renders the tag with every attribute, prop and `@hub-*` listener passed on (Vue',
    ' * sets a prop the element has as a property), and says once in the console, as it mounts, when the tag is',
    ' * not registered: a template compiled ahead of time renders a bare tag with no such check.',
    ' */',
    'function component<Tag extends keyof HubElementMembers>(tag: Tag, name: string): VueCustomElement<Tag> {',
    '  const Component = defineComponent({',
    '    name,',
    '    setup(_, { slots }) {',
    "      onMounted(() => sayIfUnregistered('hub-embed/vue', tag, `<${name}>`));",
    '      return () => h(tag, slots.default?.());',
    '    },',
    '  });',
    '  return Component as unknown as VueCustomElement<Tag>;',
    '}',
    '',
    ...elements.flatMap((e) => [
      `/** \`<${e.tag}>\`: ${e.summary} */`,
      `export const ${e.className} = component('${e.tag}', '${e.className}');`,
    ]),
    '',
  ].join('\n');
}

/** Every generated file, path -> content. */
export function bindingsFrom(manifest) {
  const elements = elementsOf(manifest);
  return {
    'src/components/members.ts': membersFile(elements),
    'src/react/index.ts': reactIndex(elements),
    'src/react/jsx.ts': reactJsx(elements),
    'src/vue/index.ts': vueIndex(elements),
  };
}

/** Writes the files, or with `check` lists the stale ones. Formatting is Prettier's, as for any source. */
export async function syncBindings(manifest, { check = false } = {}) {
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig('src/react/index.ts')) ?? {};
  const stale = [];
  for (const [path, raw] of Object.entries(bindingsFrom(manifest))) {
    const fresh = await prettier.format(raw, { ...config, filepath: path });
    const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (current === fresh) continue;
    stale.push(path);
    if (!check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, fresh);
    }
  }
  return stale;
}
