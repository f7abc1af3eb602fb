// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

/**
 * hub-embed/vue: types for the five tags in Vue templates (props, attributes and `@hub-*` events, checked by
 * vue-tsc), and `isCustomElement` for the compiler option that makes Vue leave the tags to the browser.
 * Side-effect free (vite.config.ts imports it); register the elements with `import "hub-embed/define"` (a
 * template compiled in the browser says so in the console when it is missing).
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
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
