export const LIGHTHOUSE_VERSION: string;
/** The Lighthouse CLI script, installed into the user's cache (~/.cache/hub-embed) first when missing. */
export function lighthouseCli(): string;
