export const LIGHTHOUSE_VERSION: string;
/** The Lighthouse CLI script, installed into node_modules/.lighthouse first when missing. */
export function lighthouseCli(): string;
