// A server's first view drawn for other settings than the element has: said on the console, by the later
// half (first-view-handover.ts drops such a view), so that the first file carries no words.

/** The settings a view's mark holds, in its order (viewSettings in src/first-view/first-view-markup.ts). */
const SETTINGS = ['base-url', 'form-url', 'tags'];

/** The settings a view's mark `drawn` and the element's `ours` (both JSON arrays) differ in, as attributes. */
export function viewMismatch(drawn: string | undefined, ours: string): string {
  let view: unknown;
  try {
    view = JSON.parse(drawn ?? '');
  } catch {
    // A mark that is no JSON array was not written by renderFirstView.
  }
  const element = JSON.parse(ours) as unknown[];
  if (!Array.isArray(view) || view.length !== SETTINGS.length)
    return `its mark (data-first-view=${JSON.stringify(drawn ?? '')}) was not written by renderFirstView`;
  const differ = SETTINGS.flatMap((name, index) =>
    JSON.stringify(view[index]) === JSON.stringify(element[index])
      ? []
      : [
          `${name} ${JSON.stringify(view[index] ?? null)} in the view, ${JSON.stringify(element[index] ?? null)} on the element`,
        ],
  );
  return differ.join('; ');
}

/**
 * Writes why a first view was dropped: the element drew its own, from its own settings, and a press on the
 * view's cards before it did was not passed on (they were not its cards).
 */
export function reportMismatch(drawn: string | undefined, ours: string): void {
  console.error(
    `hub-embed: the server's first view was drawn for other settings than the element has (${viewMismatch(drawn, ours)}), so the element drew its own. Give renderFirstView the element's settings.`,
  );
}
