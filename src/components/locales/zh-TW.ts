// Traditional Chinese as Taiwan writes it (zh-TW, zh-Hant, zh-HK, zh-MO): every text of the widget, its form and the bridge's no-host error, typed as the whole table so that
// a missing key fails to compile. A module of the later half (later-half.ts): a page in English never loads it.
import type { HubStrings } from '../strings.js';

export const zhTW: HubStrings = {
  all: '全部',
  filter: '依標籤篩選',
  tables: '表單',
  results: '共 {n} 筆結果',
  matching: '符合 {n} 筆',
  more: '其他 {n} 筆',
  moreTables: '其他表單',
  noMatch: '沒有符合所選標籤的表單。',
  showAll: '顯示全部',
  empty: '目前沒有表單。',
  loading: '載入中…',
  retry: '重試',
  token: '無法登入。',
  unauthorized: '您已登出。',
  network: '網路錯誤。',
  timeout: '服務逾時。',
  api: '服務發生問題。',
  config: '設定錯誤：{n}',
  close: '關閉',
  form: '表單：{n}',
  frameError: '表單無法載入。',
  'no-host': '請在應用程式中開啟此頁面。',
};
