// Which of the widget's languages a language tag gets (src/core/locale.ts): the rule every element, the
// bridge's widget.ready and the React Native modal's close label follow.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localeFor, type HubLocale } from '../../src/core/locale.js';

/** Tags as pages, browsers and devices write them, and what each must show. */
const CASES: [string, HubLocale][] = [
  ['zh-TW', 'zh-TW'],
  ['zh-HK', 'zh-TW'],
  ['zh-MO', 'zh-TW'],
  ['zh-Hant', 'zh-TW'],
  ['zh-Hant-TW', 'zh-TW'],
  ['zh-Hant-CN', 'zh-TW'],
  ['zh_TW', 'zh-TW'],
  ['ZH-hk', 'zh-TW'],
  ['zh', 'zh-CN'],
  ['zh-CN', 'zh-CN'],
  ['zh-Hans', 'zh-CN'],
  ['zh-Hans-CN', 'zh-CN'],
  ['zh-SG', 'zh-CN'],
  ['zh-Hans-HK', 'zh-CN'],
  ['zh_CN', 'zh-CN'],
  ['ja', 'ja'],
  ['ja-JP', 'ja'],
  ['JA-jp', 'ja'],
  ['ko', 'ko'],
  ['ko-KR', 'ko'],
  ['ko_KR', 'ko'],
  ['en', 'en'],
  ['en-US', 'en'],
  ['fr-FR', 'en'],
  ['de', 'en'],
  // Not Chinese, Japanese or Korean, however they begin.
  ['zu', 'en'],
  ['jam', 'en'],
  ['kok', 'en'],
  ['zha', 'en'],
  ['x-zh', 'en'],
  ['-zh', 'en'],
];

describe('localeFor', () => {
  it.each(CASES)('locale matching: %s shows %s', (tag, shown) => {
    expect(localeFor(tag)).toBe(shown);
  });

  it('locale matching: the script outranks the region, whatever region a Traditional or Simplified tag names', () => {
    const region = fc.stringMatching(/^[A-Za-z]{2}$/);
    fc.assert(
      fc.property(region, (r) => {
        expect(localeFor(`zh-Hant-${r}`)).toBe('zh-TW');
        expect(localeFor(`zh-Hans-${r}`)).toBe('zh-CN');
      }),
    );
  });

  it('locale matching: an unknown or hostile tag is English, never an error or another value', () => {
    const known = new Set(['en', 'zh-CN', 'zh-TW', 'ja', 'ko']);
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (tag) => {
        const shown = localeFor(tag || 'en');
        expect(known.has(shown)).toBe(true);
        if (!/^(zh|ja|ko)([-_]|$)/i.test(tag)) expect(shown).toBe('en');
      }),
    );
    expect(localeFor('__proto__')).toBe('en');
    expect(localeFor('constructor')).toBe('en');
  });

  it('locale matching: no tag follows the browser', () => {
    const shown = localeFor(undefined);
    expect(shown).toBe(localeFor(navigator.language));
    expect(localeFor('')).toBe(shown);
  });
});
