// Whether a focus ring is really seen: its pixels, read back from a screenshot of the test page. axe does
// not see a ring clipped by content-visibility or a scroll container (issue 29, item 1); only pixels do.
// Chromium only: vitest/browser is imported where it is used, so that happy-dom never loads it.

/** `element` and every element inside it, its shadow root's before its children, in document order. */
function* composedElements(element: Element): Generator<Element> {
  yield element;
  if (element.shadowRoot) for (const child of element.shadowRoot.children) yield* composedElements(child);
  for (const child of element.children) yield* composedElements(child);
}

const FOCUSABLE = 'button:not([disabled]), a[href], input, select, textarea, [tabindex]';

/**
 * What a keyboard user can focus in `root`: every rendered focusable element, the roving chips with
 * tabindex -1 included. An iframe is left out: its focus goes to the page inside, which draws its own.
 */
export function focusableParts(root: Element): HTMLElement[] {
  return [...composedElements(root)].filter(
    (element): element is HTMLElement =>
      element instanceof HTMLElement && element.matches(FOCUSABLE) && element.getClientRects().length > 0,
  );
}

async function screenshotPixels(): Promise<ImageData> {
  const { page } = await import('vitest/browser');
  const base64 = await page.screenshot({ save: false });
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height);
}

function rgb(color: string): [number, number, number] {
  const match = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color);
  if (!match) throw new Error(`Cannot read the ring colour "${color}"`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

type Side = 'top' | 'right' | 'bottom' | 'left';

/**
 * The share of each side of `element`'s outline band (from outline-offset to offset + width beyond the
 * border edge, a negative offset drawing it inside) painted in the outline's colour. The corners are left
 * out, where the ring follows the border radius and is anti-aliased.
 */
function paintedShare(element: HTMLElement, pixels: ImageData): Record<Side, number> {
  const style = getComputedStyle(element);
  const width = parseFloat(style.outlineWidth);
  const offset = parseFloat(style.outlineOffset);
  const ring = rgb(style.outlineColor);
  // The screenshot is of the test page's body, at its full height: its pixels are the body's CSS pixels.
  const body = document.body.getBoundingClientRect();
  if (pixels.width !== Math.round(body.width))
    throw new Error(`The screenshot is scaled: ${pixels.width} px for a body of ${body.width}`);
  const box = element.getBoundingClientRect();
  const reach = offset + width / 2; // from the border edge to the middle of the band
  const radii = [
    style.borderTopLeftRadius,
    style.borderTopRightRadius,
    style.borderBottomLeftRadius,
    style.borderBottomRightRadius,
  ];
  // A pill's radius is cut to half its height, as the browser draws it.
  const radius = Math.min(Math.max(...radii.map((r) => parseFloat(r) || 0)), box.width / 2, box.height / 2);
  const corner = radius + Math.abs(offset) + width;
  const painted = (x: number, y: number) => {
    const px = Math.round(x - body.left - 0.5);
    const py = Math.round(y - body.top - 0.5);
    if (px < 0 || py < 0 || px >= pixels.width || py >= pixels.height) return false;
    const at = (py * pixels.width + px) * 4;
    return ring.every((channel, i) => Math.abs(pixels.data[at + i]! - channel) <= 40);
  };
  const share = (points: [number, number][]) => points.filter(([x, y]) => painted(x, y)).length / points.length;
  const along = (from: number, to: number) => {
    const points: number[] = [];
    for (let at = from + corner; at <= to - corner; at += 2) points.push(at);
    // A side that is all corner (a pill's round end) still has its middle, where the ring is straight.
    return points.length ? points : [(from + to) / 2];
  };
  return {
    top: share(along(box.left, box.right).map((x) => [x, box.top - reach])),
    bottom: share(along(box.left, box.right).map((x) => [x, box.bottom + reach])),
    left: share(along(box.top, box.bottom).map((y) => [box.left - reach, y])),
    right: share(along(box.top, box.bottom).map((y) => [box.right + reach, y])),
  };
}

function describePart(element: HTMLElement): string {
  const root = element.getRootNode();
  const host = root instanceof ShadowRoot ? `<${root.host.localName}> ` : '';
  const name = element.getAttribute('part') ?? element.localName;
  return `${host}${name} "${(element.textContent ?? '').trim().slice(0, 20)}"`;
}

/**
 * Focuses each focusable part of `root` as the keyboard would (which scrolls it into view the way the
 * browser does) and returns the ones whose ring is not whole, with the painted share of each side.
 */
export async function clippedFocusRings(root: Element): Promise<string[]> {
  const { page } = await import('vitest/browser');
  const viewport = { width: innerWidth, height: innerHeight };
  // The test page is scaled down to fit the runner's window when it is taller than that window, and a
  // 2 px ring does not survive the scaling: this height fits, so one CSS pixel is one screenshot pixel.
  await page.viewport(viewport.width, UNSCALED_HEIGHT);
  // The first screenshot after a resize may still show the page before it: let the resize paint first.
  await new Promise(requestAnimationFrame);
  await new Promise(requestAnimationFrame);
  try {
    return await clippedRings(root);
  } finally {
    await page.viewport(viewport.width, viewport.height);
  }
}

const UNSCALED_HEIGHT = 600;

/**
 * The sides of `element`'s ring painted in under 95% of their length. A ring that is not whole is looked
 * at again, up to three times, with fresh geometry: on a loaded machine a screenshot can still show the
 * frame before the focus. And Chromium moves the focus to the body when an iframe on the page commits
 * its network-error page (the "loading" form frame, whose form site refuses connections, does that
 * about a second in, under load): the part is focused again before each look, so that the question
 * stays whether a focused part shows its whole ring. A ring that is really clipped stays clipped in
 * every look.
 */
async function ringGaps(element: HTMLElement): Promise<[string, number][]> {
  let gaps: [string, number][] = [];
  for (let look = 0; look < 3; look++) {
    if (look > 0) await new Promise((resolve) => setTimeout(resolve, 150));
    if (!element.matches(':focus')) element.focus();
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    gaps = Object.entries(paintedShare(element, await screenshotPixels())).filter(([, value]) => value < 0.95);
    if (!gaps.length) break;
  }
  return gaps;
}

async function clippedRings(root: Element): Promise<string[]> {
  const problems: string[] = [];
  for (const element of focusableParts(root)) {
    element.focus();
    // Inert (behind a modal dialog): no user reaches it, so it has no ring to show.
    if (!element.matches(':focus')) continue;
    if (!element.matches(':focus-visible')) {
      problems.push(`${describePart(element)}: focused but not :focus-visible`);
      continue;
    }
    // The test page's own viewport is not the widget's to manage: bring the whole ring into it, without
    // moving any scroll container inside the widget.
    const box = element.getBoundingClientRect();
    if (box.top < 8 || box.bottom > innerHeight - 8) scrollBy(0, box.top - innerHeight / 2);
    const gaps = await ringGaps(element);
    if (gaps.length)
      problems.push(
        `${describePart(element)}: ${gaps.map(([side, value]) => `${side} ${Math.round(value * 100)}%`).join(', ')} painted`,
      );
  }
  return problems;
}
