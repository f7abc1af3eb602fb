// hub-embed/jsx/hono: the five tags in Hono's JSX, for `import type {} from 'hub-embed/jsx/hono'`. Types only
// (the entry has no JavaScript), and it augments Hono's JSX namespace alone.
// Hono renders on the server, where a tag's props are its attributes, written as text. Hono takes any prop
// on a tag it does not know; these types take the tags' own attributes and HTML's global ones, so a misspelt
// name is an error. Its browser renderer listens to `onClick`-style names only, which no `hub-*` event has:
// `onhub-ready` is `never`, and the page's script listens (docs/frameworks.md).
import type { DOMAttributes } from 'hono/jsx';
import type { HubElementMembers } from '../components/members.js';

/** HTML's attributes as Hono types them, without the index signature that takes any name. */
type KnownAttributes = { [K in keyof DOMAttributes as string extends K ? never : K]: DOMAttributes[K] };

/** The JSX props of a tag under Hono: HTML's attributes and the tag's own, as text, numbers or flags. */
export type HubHonoProps<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = KnownAttributes & { [A in M['attributes']]?: string | number | boolean } & {
  [K in M['events'] as `on${K}`]?: never;
};

declare module 'hono/jsx' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'hub-embed': HubHonoProps<'hub-embed'>;
      'hub-form-frame': HubHonoProps<'hub-form-frame'>;
      'hub-table-card': HubHonoProps<'hub-table-card'>;
      'hub-table-grid': HubHonoProps<'hub-table-grid'>;
      'hub-tag-filter': HubHonoProps<'hub-tag-filter'>;
    }
  }
}
