// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

// JSX types for writing the tags directly in React 19, which sets properties on custom elements and
// listens to `on<event-name>` props: <hub-embed tokenEndpoint="/api/hub-token" onhub-ready={...} />.
import type * as React from 'react';
import type { HubElementMembers } from '../components/members.js';

/**
 * The JSX props of a tag: its properties, its renamed attributes, and `onhub-ready`-style events. (`& keyof`
 * changes nothing for a real tag; TypeScript needs it to see that through the generic map.)
 */
export type HubJsxProps<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = React.DetailedHTMLProps<React.HTMLAttributes<M['element']>, M['element']> &
  Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & { [A in M['renamedAttributes']]?: string } & {
    [K in M['events'] as `on${K}`]?: (event: GlobalEventHandlersEventMap[K]) => void;
  };

export type HubEmbedJsxProps = HubJsxProps<'hub-embed'>;
export type HubFormFrameJsxProps = HubJsxProps<'hub-form-frame'>;
export type HubTableCardJsxProps = HubJsxProps<'hub-table-card'>;
export type HubTableGridJsxProps = HubJsxProps<'hub-table-grid'>;
export type HubTagFilterJsxProps = HubJsxProps<'hub-tag-filter'>;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'hub-embed': HubEmbedJsxProps;
      'hub-form-frame': HubFormFrameJsxProps;
      'hub-table-card': HubTableCardJsxProps;
      'hub-table-grid': HubTableGridJsxProps;
      'hub-tag-filter': HubTagFilterJsxProps;
    }
  }
}
