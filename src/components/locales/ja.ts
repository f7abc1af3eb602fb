// Japanese (ja, ja-JP): every text of the widget, its form and the bridge's no-host error, typed as the whole table so that
// a missing key fails to compile. A module of the later half (later-half.ts): a page in English never loads it.
import type { HubStrings } from '../strings.js';

export const ja: HubStrings = {
  all: 'すべて',
  filter: 'タグで絞り込む',
  tables: 'フォーム',
  results: '{n} 件の結果',
  matching: '{n} 件が一致',
  more: 'ほか {n} 件',
  moreTables: 'その他のフォーム',
  noMatch: '選択したタグに一致するフォームはありません。',
  showAll: 'すべて表示',
  empty: 'フォームがありません。',
  loading: '読み込み中…',
  retry: '再試行',
  token: 'サインインできませんでした。',
  unauthorized: 'サインアウトされました。',
  network: 'ネットワークエラーです。',
  timeout: 'サービスがタイムアウトしました。',
  api: 'サービスで問題が発生しました。',
  config: '設定エラー：{n}',
  close: '閉じる',
  form: 'フォーム：{n}',
  frameError: 'フォームを読み込めませんでした。',
  'no-host': 'このページはアプリで開いてください。',
};
