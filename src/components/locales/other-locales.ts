// The tables of every locale but English, by the name localeFor gives: what the later half brings for
// strings.ts's addTexts. Each is a module of its own, so that a table is one file to read and review.
import type { HubLocale, HubStrings } from '../strings.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { zhCN } from './zh-CN.js';
import { zhTW } from './zh-TW.js';

export const otherLocales: Record<Exclude<HubLocale, 'en'>, HubStrings> = { 'zh-CN': zhCN, 'zh-TW': zhTW, ja, ko };
