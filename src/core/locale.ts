/** The widget's two languages, and which one a page shows: the elements' texts and a native host's controls follow it. */
export type HubLocale = 'zh-CN' | 'en';

/** The language the widget shows for `locale`, else for the browser's: Chinese for any `zh*`, English otherwise. */
export function localeFor(locale?: string): HubLocale {
  return /^zh/i.test(locale || globalThis.navigator?.language || '') ? 'zh-CN' : 'en';
}
