// The <script> builds' way to load the tables of the locales other than English: a classic script cannot
// import, so they come in the later half's classic script (later-half.script.ts), which the page loads at
// once when it is in another language. build/script-form-loader.ts swaps this module in for texts-loader.ts.
import type { HubLocale } from '../core/locale.js';
import { loadFormOpener } from './hub-embed/form-opener-loader.js';
import type * as ScriptLaterHalf from './hub-embed/later-half.script.js';
import { addTexts, hasTexts } from './strings.js';

let loading: Promise<void> | undefined;

/** As texts-loader.ts's: undefined when the table is in, else the one load, which settles failed or not. */
export function textsFor(locale: HubLocale): Promise<void> | undefined {
  if (hasTexts(locale)) return undefined;
  loading ??= loadFormOpener().then(
    // The loader's type is the ES builds' later half; the <script> builds' is that and the tables.
    (half) => addTexts((half as typeof ScriptLaterHalf).otherLocales),
    () => {
      loading = undefined;
    },
  );
  return loading;
}
