// Compiled by scripts/check-snippets.mjs as a program of its own, against the packed hub-embed: the one
// type import a Vue app needs for vue-tsc to check the tags in its templates (the README shows these lines).
import 'hub-embed/define';
import type {} from 'hub-embed/vue';
import type { GlobalComponents } from 'vue';

type Props = InstanceType<GlobalComponents['hub-embed']>['$props'];
export const widget: Props = { tokenEndpoint: '/api/hub-token', openMode: 'inline' };
// @ts-expect-error openMode is 'modal' | 'inline' | 'navigate'
export const wrong: Props = { openMode: 'popup' };
