/**
 * The form page's words in its two languages. The spec fixes the form URL ({form_url}/<short_code>?token=),
 * so the widget cannot pass its language in it; what every request to the form site does carry is the
 * browser's Accept-Language, from the same list the widget reads `navigator.language` from. The page picks
 * Simplified Chinese for a first language `zh*`, English otherwise: two of the widget's five languages
 * (docs/simulator.md).
 */
import { centsToGroupedYuan, yuanAndPoints } from './http.js';

export type FormLocale = 'en' | 'zh-CN';

const en = {
  lang: 'en' as FormLocale,
  colon: ': ',
  supply: 'Supply',
  demand: 'Demand',
  user: 'User',
  /** The service's own points of this user; the app's wallet is another balance, kept by the app. */
  pointsHere: 'Your points on this service',
  message: 'Message',
  submit: 'Submit (free)',
  pay: (cents: number) => `Pay ${yuanAndPoints(cents, 'en')}`,
  paysByApp: 'Paid actions are charged by the app you came from, to its own wallet; your points here do not change.',
  paysByPoints: 'Paid actions take points from your points on this service.',
  paidByApp: (cents: number) =>
    `Paid ${centsToGroupedYuan(cents)} yuan from the app's wallet; your points on this service did not change.`,
  paidByPoints: (cents: number) => `Paid ${centsToGroupedYuan(cents)} yuan from your points on this service.`,
  declined: 'Payment failed: the app declined the charge.',
  insufficient: 'Payment failed: not enough points on this service.',
  submitted: 'Submitted. Thank you!',
  badLinkTitle: 'Bad link',
  badLink: 'The link is malformed: the short code is not valid percent-encoding.',
  notFoundTitle: 'Not found',
  openHow: 'Open a form at /<short_code>?token=<access_token>.',
  notPublished: 'This project table does not exist or is not published.',
  expiredTitle: 'Sign-in expired',
  reopen: (why: string) => `${why} Reopen the form from the app.`,
  tooLarge: 'Too large',
  refused: 'Request refused',
  requestFailed: 'Request failed: ',
};

export type FormStrings = typeof en;

const zh: FormStrings = {
  lang: 'zh-CN',
  colon: '：',
  supply: '供应方',
  demand: '需求方',
  user: '用户',
  pointsHere: '你在本服务的积分',
  message: '留言',
  submit: '提交（免费）',
  pay: (cents) => `支付 ${yuanAndPoints(cents, 'zh-CN')}`,
  paysByApp: '付费操作由你来自的应用从它自己的钱包扣款；你在这里的积分不变。',
  paysByPoints: '付费操作从你在本服务的积分中扣除。',
  paidByApp: (cents) => `已从应用的钱包支付 ${centsToGroupedYuan(cents)} 元；你在本服务的积分没有变化。`,
  paidByPoints: (cents) => `已从你在本服务的积分支付 ${centsToGroupedYuan(cents)} 元。`,
  declined: '支付失败：应用拒绝了这笔扣款。',
  insufficient: '支付失败：你在本服务的积分不足。',
  submitted: '已提交，谢谢！',
  badLinkTitle: '链接有误',
  badLink: '链接格式不正确：短码不是有效的百分号编码。',
  notFoundTitle: '未找到',
  openHow: '请打开 /<short_code>?token=<access_token> 形式的表单地址。',
  notPublished: '该项目表不存在或未发布。',
  expiredTitle: '登录已过期',
  // The reason comes from the token check, in English (it is the API's message); the advice is translated.
  reopen: (why) => `${why} 请从应用中重新打开表单。`,
  tooLarge: '内容过大',
  refused: '请求被拒绝',
  requestFailed: '请求失败：',
};

const TABLES: Record<FormLocale, FormStrings> = { en, 'zh-CN': zh };

/**
 * The locale for an Accept-Language header: its most preferred language (highest q, first among equals),
 * Chinese for any `zh*`, English otherwise and when the header is absent or unreadable.
 */
export function formLocaleOf(acceptLanguage: string | null): FormLocale {
  if (!acceptLanguage) return 'en';
  let best: { tag: string; q: number } | undefined;
  for (const part of acceptLanguage.slice(0, 1000).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((param) => param.trim()).find((param) => /^q=/i.test(param));
    const quality = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i.test(tag) || !(quality > 0 && quality <= 1)) continue;
    if (!best || quality > best.q) best = { tag, q: quality };
  }
  return best && /^zh(-|$)/i.test(best.tag) ? 'zh-CN' : 'en';
}

export function formStrings(locale: FormLocale): FormStrings {
  return TABLES[locale];
}
