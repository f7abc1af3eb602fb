export declare const ROOM: number;
export interface Budget {
  bundle: 'plain' | 'webview';
  file: string;
  budget: number;
  ceiling?: number;
}
export declare const TYPEFORM_CEILING: number;
export declare const BUDGETS: ReadonlyArray<Budget>;
export declare function limitOf(budget: Pick<Budget, 'budget' | 'ceiling'>): number;
export declare const NPM_PATH_BUDGET: number;
