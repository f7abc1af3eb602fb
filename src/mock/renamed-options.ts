/**
 * Options of the simulator renamed in 0.2.0 (CHANGELOG.md, Changed), refused with their new name for one
 * release: left in place, an old option would be ignored without a word. A leaf (no imports), so that
 * settings.ts can use it without a circle through deprecated.ts.
 */
const RENAMED: Record<string, string> = { webhookTransport: 'webhookSender' };

export function refuseRenamedOptions(options: object): void {
  for (const [old, now] of Object.entries(RENAMED))
    if (old in options) throw new TypeError(`The simulator option ${old} is now called ${now}; rename it.`);
}
