/**
 * Access tokens shortened for the demo's logs, so that no screen or screenshot shows a usable one: a JWT
 * (the service's token shape, and the simulator's) keeps its first 9 characters, `eyJhbGciO…`.
 */
export function shortenTokens(text: string): string {
  return text.replace(/(eyJ[\w-]{6})[\w-]*\.[\w-]+\.[\w-]+/g, '$1…');
}
