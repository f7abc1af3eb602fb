// Simplified Chinese (zh-CN, zh-Hans, zh-SG and any zh without a Traditional region): every text of the widget, its form and the bridge's no-host error, typed as the whole table so that
// a missing key fails to compile. A module of the later half (later-half.ts): a page in English never loads it.
import type { HubStrings } from '../strings.js';

export const zhCN: HubStrings = {
  all: '全部',
  filter: '按标签筛选',
  tables: '表单',
  results: '共 {n} 个结果',
  matching: '匹配 {n} 个',
  more: '其他 {n} 个',
  moreTables: '其他项目',
  noMatch: '没有与所选标签匹配的表单。',
  showAll: '显示全部',
  empty: '暂无表单。',
  loading: '加载中…',
  retry: '重试',
  token: '无法登录。',
  unauthorized: '已登出。',
  network: '网络错误。',
  timeout: '服务超时。',
  api: '服务出错。',
  config: '配置错误：{n}',
  close: '关闭',
  form: '表单：{n}',
  frameError: '表单无法加载。',
  'no-host': '请在应用内打开此页面。',
};
