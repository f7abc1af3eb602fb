export const GENERATED: string;
export function sourcesHash(): string;
export function consoleBundleModule(): Promise<string>;
export function ensureConsoleBundle(options?: { force?: boolean }): Promise<boolean>;
