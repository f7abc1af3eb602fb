/** The Lighthouse version bench/package.json pins. */
export const LIGHTHOUSE_VERSION: string;
/** The Lighthouse CLI script, installed from bench/package-lock.json into bench/node_modules first when missing. */
export function lighthouseCli(): string;
