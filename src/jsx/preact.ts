// hub-embed/jsx/preact: the five tags in Preact's JSX, for `import type {} from 'hub-embed/jsx/preact'`. Types
// only (the entry has no JavaScript), and it augments Preact's JSX namespace alone: React's, Solid's and the
// others' stay as their own types have them.
// Preact sets a prop the element has as a property (`tags={[…]}`), any other as an attribute
// (`token-endpoint="…"`), and listens to `on<name>` props by the exact name after `on` when it starts with a
// lower-case letter: `onhub-ready` listens to `hub-ready` (preact/src/diff/props.js).
import type { HTMLAttributes } from 'preact';
import type { HubElementMembers } from '../components/members.js';

/** The JSX props of a tag under Preact: its properties, its renamed attributes and `onhub-ready`-style events. */
export type HubPreactProps<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = Omit<HTMLAttributes<M['element']>, M['properties'] | M['renamedAttributes']> &
  Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & { [A in M['renamedAttributes']]?: string } & {
    [K in M['events'] as `on${K}`]?: (event: GlobalEventHandlersEventMap[K]) => void;
  };

declare module 'preact' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'hub-embed': HubPreactProps<'hub-embed'>;
      'hub-form-frame': HubPreactProps<'hub-form-frame'>;
      'hub-table-card': HubPreactProps<'hub-table-card'>;
      'hub-table-grid': HubPreactProps<'hub-table-grid'>;
      'hub-tag-filter': HubPreactProps<'hub-tag-filter'>;
    }
  }
}
