// hub-embed/jsx/solid: the five tags in Solid's JSX, for `import type {} from 'hub-embed/jsx/solid'`. Types
// only (the entry has no JavaScript), and it augments Solid's JSX namespace alone.
// Solid sets a custom element's props as properties, a dashed name turned camelCase (`token-endpoint` sets
// `tokenEndpoint`), and `on:hub-ready` adds a listener for the event of that exact name.
import type { JSX } from 'solid-js';
import type { HubElementMembers } from '../components/members.js';

/** The JSX props of a tag under Solid: its properties, its renamed attributes and `on:hub-ready`-style events. */
export type HubSolidProps<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = Omit<JSX.HTMLAttributes<M['element']>, M['properties'] | M['renamedAttributes']> &
  Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & { [A in M['renamedAttributes']]?: string } & {
    [K in M['events'] as `on:${K}`]?: (event: GlobalEventHandlersEventMap[K]) => void;
  };

declare module 'solid-js' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'hub-embed': HubSolidProps<'hub-embed'>;
      'hub-form-frame': HubSolidProps<'hub-form-frame'>;
      'hub-table-card': HubSolidProps<'hub-table-card'>;
      'hub-table-grid': HubSolidProps<'hub-table-grid'>;
      'hub-tag-filter': HubSolidProps<'hub-tag-filter'>;
    }
  }
}
