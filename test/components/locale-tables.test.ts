// The locales' tables (src/components/locales/) against English's, which three entries hold between them:
// the widget's (strings.ts, the first file), the form's (the form half) and the bridge's no-host error.
import { describe, expect, it } from 'vitest';
import { formStrings } from '../../src/components/hub-form-frame/hub-form-frame.strings.js';
import { otherLocales } from '../../src/components/locales/other-locales.js';
import { stringsFor } from '../../src/components/strings.js';
import { NO_HOST_TEXTS } from '../../src/webview/host-link.js';

const english: Record<string, string> = { ...stringsFor('en'), ...formStrings, ...NO_HOST_TEXTS.en };
const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();

describe('the locale tables', () => {
  it('every string present in each locale: zh-CN, zh-TW, ja and ko have every key of English, and no other', () => {
    expect(Object.keys(otherLocales).sort()).toEqual(['ja', 'ko', 'zh-CN', 'zh-TW']);
    for (const [locale, table] of Object.entries(otherLocales))
      expect(Object.keys(table).sort(), locale).toEqual(Object.keys(english).sort());
  });

  it('every string present in each locale: each text keeps English’s placeholders, is not empty and is not English’s', () => {
    for (const [locale, table] of Object.entries(otherLocales))
      for (const [key, text] of Object.entries(table)) {
        const where = `${locale}.${key}`;
        expect(placeholders(text), where).toEqual(placeholders(english[key]!));
        expect(text.trim(), where).not.toBe('');
        expect(text, where).not.toBe(english[key]);
      }
  });

  it('every string present in each locale: Traditional and Simplified Chinese differ where their characters do', () => {
    const { 'zh-CN': simplified, 'zh-TW': traditional } = otherLocales;
    // Characters of one script only: 载/載, 筛/篩, 签/籤 and 标/標, 网/網, 务/務, 关/關.
    for (const [key, only] of [
      ['loading', /[载]/],
      ['filter', /[筛标签]/],
      ['network', /[网]/],
      ['close', /[关]/],
    ] as const)
      expect(simplified[key], `zh-CN.${key}`).toMatch(only);
    for (const text of Object.values(traditional)) expect(text).not.toMatch(/[载筛标签网务关应页设录选题]/);
  });
});
