export declare const CHROMIUM_ARGS: string[];
export declare const CHROMIUM_MISSING: string;
export declare function findChromium(env?: Record<string, string | undefined>): string | undefined;
