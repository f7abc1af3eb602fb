export const GENERATED: string;
export function consoleBundleModule(): Promise<string>;
