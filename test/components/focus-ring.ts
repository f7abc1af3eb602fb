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

/**
 * Where this test page's viewport sits on the runner's page, the page the browser screenshots, in CSS
 * pixels. A test page scaled to fit the runner's window has fewer screen pixels than CSS pixels, and a
 * 2 px ring does not survive the scaling: that is an error here, not a clipped ring.
 */
function viewportOnRunnerPage(): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let view: Window = window; view.frameElement; view = view.parent) {
    const frame = view.frameElement;
    const box = frame.getBoundingClientRect();
    if (Math.abs(box.width - frame.clientWidth - 2 * frame.clientLeft) > 1)
      throw new Error(`The test page is scaled: ${box.width} px on screen for ${frame.clientWidth}`);
    x += box.left + frame.clientLeft;
    y += box.top + frame.clientTop;
  }
  return { x, y };
}

/**
 * The pixels of `area` (in this page's viewport) as the browser last painted them. Only the area, straight
 * from the DevTools Protocol: a ring's neighbourhood encodes and decodes in a fifth of the time a
 * screenshot of the whole test page takes (48 against 250 ms a part), and the loaded widget has about 100.
 */
async function screenshotPixels(area: DOMRect): Promise<ImageData> {
  const { cdp } = await import('vitest/browser');
  const origin = viewportOnRunnerPage();
  const clip = { x: origin.x + area.x, y: origin.y + area.y, width: area.width, height: area.height, scale: 1 };
  const shot = await cdp().send('Page.captureScreenshot', { format: 'png', clip, optimizeForSpeed: true });
  const bytes = Uint8Array.from(atob((shot as { data: string }).data), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  if (bitmap.width !== area.width) throw new Error(`The screenshot is scaled: ${bitmap.width} px for ${area.width}`);
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
async function paintedShare(element: HTMLElement): Promise<Record<Side, number>> {
  const style = getComputedStyle(element);
  const width = parseFloat(style.outlineWidth);
  const offset = parseFloat(style.outlineOffset);
  const ring = rgb(style.outlineColor);
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
  // The band and two pixels beyond it, in whole pixels within the test page's viewport: a ring outside
  // the viewport is not seen, and reads as not painted.
  const margin = Math.max(0, offset + width) + 2;
  const left = Math.max(0, Math.floor(box.left - margin));
  const top = Math.max(0, Math.floor(box.top - margin));
  const right = Math.min(innerWidth, Math.ceil(box.right + margin));
  const bottom = Math.min(innerHeight, Math.ceil(box.bottom + margin));
  // A part wholly outside the viewport leaves no area to capture (the protocol refuses an empty clip).
  const pixels =
    right > left && bottom > top
      ? await screenshotPixels(new DOMRect(left, top, right - left, bottom - top))
      : undefined;
  const painted = (x: number, y: number) => {
    const px = Math.round(x - left - 0.5);
    const py = Math.round(y - top - 0.5);
    if (!pixels || px < 0 || py < 0 || px >= pixels.width || py >= pixels.height) return false;
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
    gaps = Object.entries(await paintedShare(element)).filter(([, value]) => value < 0.95);
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
