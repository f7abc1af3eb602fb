/**
 * The widget's languages, and which one a page shows: the elements' texts and a native host's controls
 * follow it. English is in the first file; the others come with the later half (src/components/locales/).
 */
export type HubLocale = 'en' | 'zh-CN' | 'zh-TW' | 'ja' | 'ko';

/** Regions whose Chinese readers read Traditional characters when the tag names no script. */
const TRADITIONAL_REGIONS = ['tw', 'hk', 'mo'];

/**
 * The language the widget shows for a BCP 47 tag (`_` accepted, as Android and Java write them), else
 * for the browser's: Traditional Chinese for `zh-Hant*` and Chinese of Taiwan, Hong Kong and Macau;
 * Simplified for any other `zh*`; Japanese for `ja*`; Korean for `ko*`; English for anything else.
 * A script subtag outranks the region: `zh-Hans-HK` is Simplified.
 */
export function localeFor(locale?: string): HubLocale {
  const [language, ...subtags] = (locale || globalThis.navigator?.language || '').toLowerCase().split(/[-_]/);
  if (language === 'ja' || language === 'ko') return language;
  if (language !== 'zh') return 'en';
  const traditional =
    subtags.includes('hant') ||
    (!subtags.includes('hans') && subtags.some((subtag) => TRADITIONAL_REGIONS.includes(subtag)));
  return traditional ? 'zh-TW' : 'zh-CN';
}
