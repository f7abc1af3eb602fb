// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

/**
 * hub-embed/react: a React component per element, made with @lit/react (React 18 and 19, optional peers): properties as
 * props, events as `onHubReady`-style props with typed `event.detail`. Like every binding it registers
 * nothing: `import "hub-embed/define"` once registers the elements (a component mounted without it says so in
 * the console).
 * For React 19 JSX such as `<hub-embed onhub-ready={...}>`, see the types in ./jsx.ts.
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import {
  HubEmbed as HubEmbedElement,
  HubFormFrame as HubFormFrameElement,
  HubTableCard as HubTableCardElement,
  HubTableGrid as HubTableGridElement,
  HubTagFilter as HubTagFilterElement,
} from '../index.js';
import { requirePeer } from '../core/peer-floors.js';
import { sayIfUnregistered } from '../components/unregistered.js';
import type { HubElementMembers } from '../components/members.js';
import type { HubComponent } from './jsx.js';
export type * from './jsx.js';

// React is an optional peer of any version (an app that never imports this installs with its own); this
// binding says at once when the app's is older than it needs.
requirePeer('hub-embed/react', 'react', React.version);

/** An event name carrying the detail type the element declares for it. */
const event = <N extends keyof GlobalEventHandlersEventMap>(name: N) =>
  name as EventName<GlobalEventHandlersEventMap[N]>;

const noSubscription = () => () => undefined;
/** False on the server and while hydrating server HTML; true after, and at once in an app without server HTML. */
const useHydrated = () =>
  React.useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/**
 * The component of an element, rendering its tag in the browser only, after hydration: a tag in server HTML
 * would be upgraded by `hub-embed/define` before hydration, and start without the props that React sets
 * after it (a setup error in the console, or a first load without the tags).
 * Typed as HubComponent, from the elements' own members: the declarations need no @lit/react, so that a
 * type-only import of this entry compiles without it (`skipLibCheck: false`).
 */
function inBrowser<Tag extends keyof HubElementMembers>(
  tag: Tag,
  displayName: string,
  Component: React.ElementType,
): HubComponent<Tag> {
  const InBrowser = React.forwardRef((props: object, ref) => {
    React.useEffect(() => sayIfUnregistered('hub-embed/react', tag, `<${displayName}>`), []);
    return useHydrated() ? React.createElement(Component, { ...props, ref }) : null;
  });
  InBrowser.displayName = displayName;
  return InBrowser;
}

/** `<hub-embed>`: The whole widget: tag filter, table grid, and the form in a dialog, inline, or by navigation. */
export const HubEmbed = inBrowser(
  'hub-embed',
  'HubEmbed',
  createComponent({
    tagName: 'hub-embed',
    elementClass: HubEmbedElement,
    react: React,
    displayName: 'HubEmbed',
    events: {
      onHubReady: event('hub-ready'),
      onHubTagsChange: event('hub-tags-change'),
      onHubTableSelect: event('hub-table-select'),
      onHubFormOpen: event('hub-form-open'),
      onHubFormClose: event('hub-form-close'),
      onHubFormMessage: event('hub-form-message'),
      onHubError: event('hub-error'),
    },
  }),
);

/** `<hub-form-frame>`: The form page of one table in a sandboxed iframe, with loading, timeout/retry and close. */
export const HubFormFrame = inBrowser(
  'hub-form-frame',
  'HubFormFrame',
  createComponent({
    tagName: 'hub-form-frame',
    elementClass: HubFormFrameElement,
    react: React,
    displayName: 'HubFormFrame',
    events: {
      onHubFormMessage: event('hub-form-message'),
      onHubFormClose: event('hub-form-close'),
      onHubError: event('hub-error'),
    },
  }),
);

/** `<hub-table-card>`: One published table as a single control: Enter, Space or a click selects it. */
export const HubTableCard = inBrowser(
  'hub-table-card',
  'HubTableCard',
  createComponent({
    tagName: 'hub-table-card',
    elementClass: HubTableCardElement,
    react: React,
    displayName: 'HubTableCard',
    events: {
      onHubTableSelect: event('hub-table-select'),
    },
  }),
);

/** `<hub-table-grid>`: The tables as cards, with skeletons while loading, an empty state and an announced count.
Each card is the markup of <hub-table-card>, drawn in the grid's own shadow root. While `loading` with
tables shown, the grid stays visible and readable, marked busy.
With `tags` selected, the tables matching them come first and a divider (part `more`) separates the
tables the service added to fill its limit; `matches-only` leaves those out. */
export const HubTableGrid = inBrowser(
  'hub-table-grid',
  'HubTableGrid',
  createComponent({
    tagName: 'hub-table-grid',
    elementClass: HubTableGridElement,
    react: React,
    displayName: 'HubTableGrid',
    events: {
      onHubTableSelect: event('hub-table-select'),
      onHubTagsChange: event('hub-tags-change'),
    },
  }),
);

/** `<hub-tag-filter>`: Multi-select tag chips. The service lists the tables matching any selected tag first, then fills
its limit from other projects; <hub-table-grid> shows where the matching tables end. */
export const HubTagFilter = inBrowser(
  'hub-tag-filter',
  'HubTagFilter',
  createComponent({
    tagName: 'hub-tag-filter',
    elementClass: HubTagFilterElement,
    react: React,
    displayName: 'HubTagFilter',
    events: {
      onHubTagsChange: event('hub-tags-change'),
    },
  }),
);
