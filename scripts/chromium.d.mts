export declare const CHROMIUM_ARGS: string[];
export declare const UNSEEN_UI_FEATURES: string[];
export declare const PLAYWRIGHT_CHROMIUM_ARGS: string[];
export declare const CHROMIUM_MISSING: string;
export declare function findChromium(env?: Record<string, string | undefined>): string | undefined;
export declare function findTestChromium(env?: Record<string, string | undefined>): string | undefined;
