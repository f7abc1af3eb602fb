// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

// JSX types for writing the tags directly in React 19, which sets properties on custom elements and
// listens to `on<event-name>` props: <hub-embed tokenEndpoint="/api/hub-token" onhub-ready={...} />.
import type * as React from 'react';
import type { HubEmbed, HubFormFrame, HubTableCard, HubTableGrid, HubTagFilter } from '../index.js';

/** `onhub-ready` and the like, typed from GlobalEventHandlersEventMap. */
type EventProps<N extends keyof GlobalEventHandlersEventMap> = {
  [K in N as `on${K}`]?: (event: GlobalEventHandlersEventMap[K]) => void;
};

/** The JSX props of `<hub-embed>`: its properties, its multi-word attributes, and its events. */
export type HubEmbedJsxProps = React.DetailedHTMLProps<React.HTMLAttributes<HubEmbed>, HubEmbed> &
  Partial<
    Pick<
      HubEmbed,
      | 'openFormHook'
      | 'tokenEndpoint'
      | 'baseUrl'
      | 'formUrl'
      | 'tags'
      | 'limit'
      | 'matchesOnly'
      | 'theme'
      | 'openMode'
      | 'tokenProvider'
      | 'bridge'
      | 'bridgeOrigins'
      | 'locale'
      | 'strings'
    >
  > & {
    'token-endpoint'?: string;
    'base-url'?: string;
    'form-url'?: string;
    'matches-only'?: string;
    'open-mode'?: string;
    'bridge-origins'?: string;
  } & EventProps<
    | 'hub-ready'
    | 'hub-tags-change'
    | 'hub-table-select'
    | 'hub-form-open'
    | 'hub-form-close'
    | 'hub-form-message'
    | 'hub-error'
  >;

/** The JSX props of `<hub-form-frame>`: its properties, its multi-word attributes, and its events. */
export type HubFormFrameJsxProps = React.DetailedHTMLProps<React.HTMLAttributes<HubFormFrame>, HubFormFrame> &
  Partial<
    Pick<
      HubFormFrame,
      | 'formUrl'
      | 'shortCode'
      | 'token'
      | 'tableName'
      | 'sandbox'
      | 'referrerPolicy'
      | 'allow'
      | 'timeout'
      | 'locale'
      | 'strings'
    >
  > & { 'form-url'?: string; 'short-code'?: string; 'table-name'?: string; referrerpolicy?: string } & EventProps<
    'hub-form-message' | 'hub-form-close' | 'hub-error'
  >;

/** The JSX props of `<hub-table-card>`: its properties, its multi-word attributes, and its events. */
export type HubTableCardJsxProps = React.DetailedHTMLProps<React.HTMLAttributes<HubTableCard>, HubTableCard> &
  Partial<Pick<HubTableCard, 'table' | 'locale' | 'strings'>> &
  EventProps<'hub-table-select'>;

/** The JSX props of `<hub-table-grid>`: its properties, its multi-word attributes, and its events. */
export type HubTableGridJsxProps = React.DetailedHTMLProps<React.HTMLAttributes<HubTableGrid>, HubTableGrid> &
  Partial<Pick<HubTableGrid, 'tables' | 'loading' | 'selected' | 'matchesOnly' | 'locale' | 'strings'>> & {
    'matches-only'?: string;
  } & EventProps<'hub-table-select' | 'hub-tags-change'>;

/** The JSX props of `<hub-tag-filter>`: its properties, its multi-word attributes, and its events. */
export type HubTagFilterJsxProps = React.DetailedHTMLProps<React.HTMLAttributes<HubTagFilter>, HubTagFilter> &
  Partial<Pick<HubTagFilter, 'tags' | 'selected' | 'locale' | 'strings'>> &
  EventProps<'hub-tags-change'>;

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
