// Loads the tables of the locales other than English, so that a page in English loads nothing more for its
// texts and the first file carries one table. In the ES builds they are a chunk of their own, which a page's
// bundler makes of this dynamic import. The <script> builds swap this module for texts-loader.script.ts
// (build/script-form-loader.ts), which takes them from the later half's classic script.
import type { HubLocale } from '../core/locale.js';
import { addTexts, hasTexts } from './strings.js';

let loading: Promise<void> | undefined;

/**
 * Undefined when the table of `locale` is in; else the one load of the tables, started by the first
 * element that asks, which settles once they are in. A failed load settles too (the element then shows
 * English rather than nothing), and is forgotten, so that the next element to connect tries again.
 */
export function textsFor(locale: HubLocale): Promise<void> | undefined {
  if (hasTexts(locale)) return undefined;
  loading ??= import('./locales/other-locales.js').then(
    ({ otherLocales }) => addTexts(otherLocales),
    () => {
      loading = undefined;
    },
  );
  return loading;
}
