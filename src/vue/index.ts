// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

/**
 * hub-embed/vue: types for the five tags in Vue templates (props, attributes and `@hub-*` events, checked by
 * vue-tsc), `isCustomElement` for the compiler option that makes Vue leave the tags to the browser, and a
 * component per tag (`<HubEmbed>`, typed the same) for templates compiled ahead of time (.vue files).
 * Side-effect free (vite.config.ts imports it); register the elements with `import "hub-embed/define"`: a
 * component mounted without it, and a template compiled in the browser, say so in the console.
 */
import { defineComponent, h, onMounted, type EmitFn, type HTMLAttributes, type PublicProps } from 'vue';
import { sayIfUnregistered } from '../components/unregistered.js';
import type { HubElementMembers } from '../components/members.js';

/** The tags this package defines. */
export const HUB_TAGS = ['hub-embed', 'hub-form-frame', 'hub-table-card', 'hub-table-grid', 'hub-tag-filter'] as const;

/** For `compilerOptions.isCustomElement` (in @vitejs/plugin-vue: `template.compilerOptions`). */
// Called by the template compiler: in the browser when Vue compiles templates there, where an unregistered
// tag is said once.
export function isCustomElement(tag: string): boolean {
  const ours = (HUB_TAGS as readonly string[]).includes(tag);
  if (ours) sayIfUnregistered('hub-embed/vue', tag, 'A template');
  return ours;
}

/** A tag as Vue types a component: `$props` for the template, `$emit` for `@event`. */
type VueCustomElement<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = new () => M['element'] & {
  $props: HTMLAttributes & Partial<Pick<M['element'], M['properties'] & keyof M['element']>> & PublicProps;
  $emit: EmitFn<{ [K in M['events']]: (event: GlobalEventHandlersEventMap[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'hub-embed': VueCustomElement<'hub-embed'>;
    'hub-form-frame': VueCustomElement<'hub-form-frame'>;
    'hub-table-card': VueCustomElement<'hub-table-card'>;
    'hub-table-grid': VueCustomElement<'hub-table-grid'>;
    'hub-tag-filter': VueCustomElement<'hub-tag-filter'>;
  }
}

/**
 * The component of a tag: renders the tag with every attribute, prop and `@hub-*` listener passed on (Vue
 * sets a prop the element has as a property), and says once in the console, as it mounts, when the tag is
 * not registered: a template compiled ahead of time renders a bare tag with no such check.
 */
function component<Tag extends keyof HubElementMembers>(tag: Tag, name: string): VueCustomElement<Tag> {
  const Component = defineComponent({
    name,
    setup(_, { slots }) {
      onMounted(() => sayIfUnregistered('hub-embed/vue', tag, `<${name}>`));
      return () => h(tag, slots.default?.());
    },
  });
  return Component as unknown as VueCustomElement<Tag>;
}

/** `<hub-embed>`: The whole widget: tag filter, table grid, and the form in a dialog, inline, or by navigation. */
export const HubEmbed = component('hub-embed', 'HubEmbed');
/** `<hub-form-frame>`: The form page of one table in a sandboxed iframe, with loading, timeout/retry and close. */
export const HubFormFrame = component('hub-form-frame', 'HubFormFrame');
/** `<hub-table-card>`: One published table as a single control: Enter, Space or a click selects it. */
export const HubTableCard = component('hub-table-card', 'HubTableCard');
/** `<hub-table-grid>`: The tables as cards, with skeletons while loading, an empty state and an announced count.
Each card is the markup of <hub-table-card>, drawn in the grid's own shadow root. While `loading` with
tables shown, the grid stays visible and readable, marked busy.
With `tags` selected, the tables matching them come first and a divider (part `more`) separates the
tables the service added to fill its limit; `matches-only` leaves those out. */
export const HubTableGrid = component('hub-table-grid', 'HubTableGrid');
/** `<hub-tag-filter>`: Multi-select tag chips. The service lists the tables matching any selected tag first, then fills
its limit from other projects; <hub-table-grid> shows where the matching tables end. */
export const HubTagFilter = component('hub-tag-filter', 'HubTagFilter');
