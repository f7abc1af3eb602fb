export declare const ROOM: number;
export declare const BUDGETS: ReadonlyArray<{ bundle: 'plain' | 'webview'; file: string; budget: number }>;
export declare const NPM_PATH_BUDGET: number;
