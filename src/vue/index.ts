// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

/**
 * hub-embed/vue: types for the five tags in Vue templates (props, attributes and `@hub-*` events, checked by
 * vue-tsc), and `isCustomElement` for the compiler option that makes Vue leave the tags to the browser.
 * Side-effect free (vite.config.ts imports it); register the elements with `import "hub-embed/define"`.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { HubEmbed, HubFormFrame, HubTableCard, HubTableGrid, HubTagFilter } from '../index.js';

/** The tags this package defines. */
export const HUB_TAGS = ['hub-embed', 'hub-form-frame', 'hub-table-card', 'hub-table-grid', 'hub-tag-filter'] as const;

/** For `compilerOptions.isCustomElement` (in @vitejs/plugin-vue: `template.compilerOptions`). */
export function isCustomElement(tag: string): boolean {
  return (HUB_TAGS as readonly string[]).includes(tag);
}

/** A custom element as Vue types a component: `$props` for the template, `$emit` for `@event`. */
type VueCustomElement<
  E extends HTMLElement,
  P extends keyof E,
  N extends keyof GlobalEventHandlersEventMap,
> = new () => E & {
  $props: HTMLAttributes & Partial<Pick<E, P>> & PublicProps;
  $emit: EmitFn<{ [K in N]: (event: GlobalEventHandlersEventMap[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'hub-embed': VueCustomElement<
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
      | 'strings',
      | 'hub-ready'
      | 'hub-tags-change'
      | 'hub-table-select'
      | 'hub-form-open'
      | 'hub-form-close'
      | 'hub-form-message'
      | 'hub-error'
    >;
    'hub-form-frame': VueCustomElement<
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
      | 'strings',
      'hub-form-message' | 'hub-form-close' | 'hub-error'
    >;
    'hub-table-card': VueCustomElement<HubTableCard, 'table' | 'locale' | 'strings', 'hub-table-select'>;
    'hub-table-grid': VueCustomElement<
      HubTableGrid,
      'tables' | 'loading' | 'selected' | 'matchesOnly' | 'locale' | 'strings',
      'hub-table-select' | 'hub-tags-change'
    >;
    'hub-tag-filter': VueCustomElement<HubTagFilter, 'tags' | 'selected' | 'locale' | 'strings', 'hub-tags-change'>;
  }
}
