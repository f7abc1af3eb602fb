// Compiled by scripts/check-snippets.mjs in an empty project where the packed hub-embed is installed:
// the Vue bindings' types (what vue-tsc checks a template against), used right and wrong, under strict.
import type { GlobalComponents } from 'vue';
import { HUB_TAGS, isCustomElement } from 'hub-embed/vue';

type Props<Tag extends keyof GlobalComponents> = InstanceType<GlobalComponents[Tag]>['$props'];
type Emit<Tag extends keyof GlobalComponents> = InstanceType<GlobalComponents[Tag]>['$emit'];

export const widget: Props<'hub-embed'> = {
  tokenEndpoint: '/api/hub-token',
  baseUrl: 'https://hub.example.com',
  tags: ['delivery'],
  limit: 20,
  openMode: 'inline',
  class: 'wide',
};
// @ts-expect-error tags is a string[]
export const wrongTags: Props<'hub-embed'> = { tags: 'delivery' };
// @ts-expect-error openMode is 'modal' | 'inline' | 'navigate'
export const wrongMode: Props<'hub-embed'> = { openMode: 'popup' };
export const card: Props<'hub-table-card'> = {};
export const frame: Props<'hub-form-frame'> = { shortCode: 'k3Xp9a', timeout: 5000 };

export function emits(emit: Emit<'hub-embed'>, ready: GlobalEventHandlersEventMap['hub-ready']): void {
  emit('hub-ready', ready);
  // @ts-expect-error hub-ready carries a hub-ready event
  emit('hub-ready', new Event('x'));
  // @ts-expect-error hub-tag-filter has no hub-ready event
  (null as unknown as Emit<'hub-tag-filter'>)('hub-ready', ready);
}

export const tags: readonly string[] = HUB_TAGS;
export const claimed: boolean = isCustomElement('hub-embed');
