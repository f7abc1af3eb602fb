// The texts only an open form shows, per locale: they come with the form half of <hub-embed>, so that
// the first file carries none of them. The embedder overrides them through `strings` like any other.
import type { HubLocale, HubStrings, FormStringKey } from '../strings.js';

export const formStrings: Record<HubLocale, Pick<HubStrings, FormStringKey>> = {
  en: {
    close: 'Close',
    form: 'Form: {n}',
    frameError: 'The form did not load.',
  },
  'zh-CN': {
    close: '关闭',
    form: '表单：{n}',
    frameError: '表单无法加载。',
  },
};
