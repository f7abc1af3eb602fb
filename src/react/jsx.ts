// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

// JSX types for the tags and for the components of hub-embed/react. React 19 sets properties on custom elements
// and listens to `on<event-name>` props: <hub-embed tokenEndpoint="/api/hub-token" onhub-ready={...} />. React 18
// sets attributes only, as text, and listens to nothing: there a tag takes its attributes alone.
import type * as React from 'react';
import type { HubElementMembers } from '../components/members.js';

/** Whether the app's React types are React 19's or later (`useActionState` came with 19). */
export type HubReact19 = 'useActionState' extends keyof typeof React ? true : false;

/**
 * React 19: the JSX props of a tag: its properties, its renamed attributes, and `onhub-ready`-style events.
 * (`& keyof` changes nothing for a real tag; TypeScript needs it to see that through the generic map.)
 */
export type HubJsxProperties<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = React.DetailedHTMLProps<React.HTMLAttributes<M['element']>, M['element']> &
  Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & { [A in M['renamedAttributes']]?: string } & {
    [K in M['events'] as `on${K}`]?: (event: GlobalEventHandlersEventMap[K]) => void;
  };

/**
 * React 18: the JSX props of a tag: its attributes, as text (`token-endpoint="…"`, `tags="a,b"`). A property
 * (`tokenEndpoint`) is not one, and an `onhub-ready` handler is `never`: React 18 would drop both silently.
 */
export type HubJsxAttributes<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = React.DetailedHTMLProps<React.HTMLAttributes<M['element']>, M['element']> & { [A in M['attributes']]?: string } & {
  [K in M['events'] as `on${K}`]?: never;
};

/** The JSX props of a tag under the app's React: HubJsxProperties on React 19 and later, else HubJsxAttributes. */
export type HubJsxProps<Tag extends keyof HubElementMembers> = HubReact19 extends true
  ? HubJsxProperties<Tag>
  : HubJsxAttributes<Tag>;

export type HubEmbedJsxProps = HubJsxProps<'hub-embed'>;
export type HubFormFrameJsxProps = HubJsxProps<'hub-form-frame'>;
export type HubTableCardJsxProps = HubJsxProps<'hub-table-card'>;
export type HubTableGridJsxProps = HubJsxProps<'hub-table-grid'>;
export type HubTagFilterJsxProps = HubJsxProps<'hub-tag-filter'>;

/** `hub-ready` as `HubReady`. */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<S>;

/**
 * The props of a component of hub-embed/react (React 18 and 19): the HTML attributes, the properties, set as
 * properties, and `onHubReady`-style handlers.
 */
export type HubComponentProps<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = Omit<React.HTMLAttributes<M['element']>, M['properties'] | `on${Pascal<M['events']>}`> &
  Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & {
    [K in M['events'] as `on${Pascal<K>}`]?: (event: GlobalEventHandlersEventMap[K]) => void;
  };

/** A component of hub-embed/react; its ref is the element. */
export type HubComponent<Tag extends keyof HubElementMembers> = React.ForwardRefExoticComponent<
  HubComponentProps<Tag> & React.RefAttributes<HubElementMembers[Tag]['element']>
>;

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
