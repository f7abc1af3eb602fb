// Korean (ko, ko-KR): every text of the widget, its form and the bridge's no-host error, typed as the whole table so that
// a missing key fails to compile. A module of the later half (later-half.ts): a page in English never loads it.
import type { HubStrings } from '../strings.js';

export const ko: HubStrings = {
  all: '전체',
  filter: '태그로 필터링',
  tables: '양식',
  results: '결과 {n}개',
  matching: '{n}개 일치',
  more: '그 외 {n}개',
  moreTables: '다른 양식',
  noMatch: '선택한 태그와 일치하는 양식이 없습니다.',
  showAll: '모두 보기',
  empty: '양식이 없습니다.',
  loading: '불러오는 중…',
  retry: '다시 시도',
  token: '로그인할 수 없습니다.',
  unauthorized: '로그아웃되었습니다.',
  network: '네트워크 오류가 발생했습니다.',
  timeout: '서비스 응답 시간이 초과되었습니다.',
  api: '서비스에 문제가 발생했습니다.',
  config: '설정 오류: {n}',
  close: '닫기',
  form: '양식: {n}',
  frameError: '양식을 불러오지 못했습니다.',
  'no-host': '앱에서 이 페이지를 열어 주세요.',
};
