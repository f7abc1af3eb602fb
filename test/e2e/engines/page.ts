// The page API the end-to-end tests are written against: the part of Playwright's Page, Locator and
// FrameLocator that they use, with the same names and meaning, so a test written for Playwright
// ports by changing its imports. It is implemented once, on the primitives of drivers.ts, with the
// selector engine of in-page.ts, so it behaves the same in every engine.
//   Locators wait (up to 15 s) for their element and are strict: an action on a locator that matches
//   several elements fails, as in Playwright. A click scrolls the element into view, waits until
//   nothing covers its middle and it has stopped moving, then clicks there with the engine's mouse.
import { writeFile } from 'node:fs/promises';
import type { DriverPage } from './drivers.js';
import { inPage, type Op, type Step, type TextMatch } from './in-page.js';

const TIMEOUT_MS = 15_000;

const textMatch = (text: string | RegExp): TextMatch =>
  typeof text === 'string' ? { text } : { source: text.source, flags: text.flags };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The expression that runs the selector engine on `steps` in a frame; `fn` is sent as its source. */
function expression(steps: Step[], op: Op, arg: unknown, fn?: (...args: any[]) => unknown): string {
  // undefined has no JSON: wrap every answer so that undefined survives the trip in every driver.
  const fnSource = fn ? fn.toString() : 'null';
  return `(async () => { const v = await (${inPage.toString()})(${JSON.stringify(steps)}, ${JSON.stringify(op)}, ${JSON.stringify(arg ?? null)}, ${fnSource}); return v === undefined ? { undefined: true } : { v }; })()`;
}

function unwrap(result: unknown): any {
  const box = result as { undefined?: true; v?: unknown };
  return box.undefined ? undefined : box.v;
}

interface Resolved {
  missing?: true;
  strict?: number;
  value?: unknown;
}

export interface LocatorOptions {
  hasText?: string | RegExp;
}

export interface RoleOptions {
  name?: string | RegExp;
  exact?: boolean;
}

/** A place to look: the page, or a frame reached through <iframe> elements. */
abstract class Scope {
  constructor(
    protected readonly page: EnginePage,
    protected readonly frames: Step[][],
  ) {}

  locator(selector: string, options: LocatorOptions = {}): Locator {
    return new Locator(this.page, this.frames, [cssStep(selector, options)]);
  }

  getByRole(role: string, options: RoleOptions = {}): Locator {
    return new Locator(this.page, this.frames, [roleStep(role, options)]);
  }

  frameLocator(selector: string): FrameLocator {
    return new FrameLocator(this.page, [...this.frames, [cssStep(selector, {})]]);
  }
}

function cssStep(selector: string, { hasText }: LocatorOptions): Step {
  return { kind: 'css', selector, ...(hasText === undefined ? {} : { hasText: textMatch(hasText) }) };
}

function roleStep(role: string, { name, exact }: RoleOptions): Step {
  return { kind: 'role', role, ...(name === undefined ? {} : { name: textMatch(name) }), exact: exact === true };
}

export class FrameLocator extends Scope {
  /** Runs `fn(arg)` in the frame's window (a Playwright Frame's evaluate, for a frame found by selector). */
  async evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    const source = `(async () => { const v = await (${fn.toString()})(${JSON.stringify(arg ?? null)}); return v === undefined ? { undefined: true } : { v }; })()`;
    // Boxed, so that a function returning undefined is an answer, not "the frame is not there yet".
    const box = await this.page.waitFor(
      async () => ({
        value: unwrap(await this.page.driver.evaluate(this.page.frameExpressions(this.frames), source)) as R,
      }),
      'the frame',
    );
    return box.value;
  }

  /** Runs a script's source in the frame (a library such as axe-core), outside the frame's CSP. */
  async addScript(source: string): Promise<void> {
    await this.page.waitFor(
      async () =>
        unwrap(
          await this.page.driver.evaluate(
            this.page.frameExpressions(this.frames),
            `(() => { ${source}\n; return { v: true }; })()`,
          ),
        ) as boolean,
      'the frame',
    );
  }
}

export class Locator extends Scope {
  constructor(
    page: EnginePage,
    frames: Step[][],
    private readonly steps: Step[],
  ) {
    super(page, frames);
  }

  override locator(selector: string, options: LocatorOptions = {}): Locator {
    return new Locator(this.page, this.frames, [...this.steps, cssStep(selector, options)]);
  }

  override getByRole(role: string, options: RoleOptions = {}): Locator {
    return new Locator(this.page, this.frames, [...this.steps, roleStep(role, options)]);
  }

  filter({ hasText }: { hasText: string | RegExp }): Locator {
    return new Locator(this.page, this.frames, [...this.steps, { kind: 'filter', hasText: textMatch(hasText) }]);
  }

  nth(index: number): Locator {
    return new Locator(this.page, this.frames, [...this.steps, { kind: 'nth', index }]);
  }

  first(): Locator {
    return this.nth(0);
  }

  last(): Locator {
    return this.nth(-1);
  }

  private run(op: Op, arg?: unknown, fn?: (...args: any[]) => unknown): Promise<any> {
    return this.page.driver
      .evaluate(this.page.frameExpressions(this.frames), expression(this.steps, op, arg, fn))
      .then(unwrap);
  }

  private describe(): string {
    return this.steps
      .map((step) =>
        step.kind === 'css'
          ? step.selector + (step.hasText ? ` (has text ${JSON.stringify(step.hasText)})` : '')
          : step.kind === 'role'
            ? `role=${step.role}${step.name ? ` name ${JSON.stringify(step.name)}` : ''}`
            : step.kind === 'filter'
              ? `filter ${JSON.stringify(step.hasText)}`
              : `nth=${step.index}`,
      )
      .join(' >> ');
  }

  /** `fn(element, arg)` on the one element, waiting for it to exist; strict as in Playwright. */
  private async one<R>(fn: (element: any, arg: any) => R, arg?: unknown, wait = true): Promise<R> {
    return this.page
      .waitFor(async () => {
        const resolved = (await this.run('one', arg, fn)) as Resolved;
        if (resolved.strict) throw new StrictError(`${this.describe()} matches ${resolved.strict} elements`);
        if (resolved.missing) {
          if (!wait) throw new MissingError(this.describe());
          return undefined;
        }
        return { value: resolved.value as R };
      }, this.describe())
      .then((box) => box.value);
  }

  count(): Promise<number> {
    return this.run('count');
  }

  evaluate<R, A = unknown>(fn: (element: any, arg: A) => R | Promise<R>, arg?: A): Promise<Awaited<R>> {
    return this.one(fn as never, arg) as Promise<Awaited<R>>;
  }

  evaluateAll<R, A = unknown>(fn: (elements: any[], arg: A) => R | Promise<R>, arg?: A): Promise<Awaited<R>> {
    return this.run('all', arg, fn);
  }

  allTextContents(): Promise<string[]> {
    return this.evaluateAll((elements: Element[]) => elements.map((element) => element.textContent ?? ''));
  }

  allInnerTexts(): Promise<string[]> {
    return this.evaluateAll((elements: HTMLElement[]) => elements.map((element) => element.innerText));
  }

  textContent(): Promise<string | null> {
    return this.one((element: Element) => element.textContent);
  }

  innerText(): Promise<string> {
    return this.one((element: HTMLElement) => element.innerText);
  }

  inputValue(): Promise<string> {
    return this.one((element: HTMLInputElement) => element.value);
  }

  getAttribute(name: string): Promise<string | null> {
    return this.one((element: Element, attribute: string) => element.getAttribute(attribute), name);
  }

  /** Whether the element is there and rendered, now; no waiting (as in Playwright). */
  async isVisible(): Promise<boolean> {
    const resolved = (await this.run('one', null, (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    })) as Resolved;
    if (resolved.strict) throw new StrictError(`${this.describe()} matches ${resolved.strict} elements`);
    return resolved.missing ? false : (resolved.value as boolean);
  }

  /** The element's box in the top-level viewport. */
  async boundingBox(): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await this.one((element: Element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    });
    const offset = await this.page.frameOffset(this.frames);
    return { ...box, x: box.x + offset.x, y: box.y + offset.y };
  }

  async waitFor(
    options: { state?: 'attached' | 'visible' | 'detached' | 'hidden'; timeoutMs?: number } = {},
  ): Promise<void> {
    const state = options.state ?? 'visible';
    await this.page.waitFor(
      async () => {
        const count = await this.count();
        if (state === 'detached') return count === 0 ? { done: true } : undefined;
        if (count > 1 && state !== 'hidden') throw new StrictError(`${this.describe()} matches ${count} elements`);
        if (state === 'attached') return count === 1 ? { done: true } : undefined;
        const visible = count === 1 && (await this.isVisible());
        return visible === (state === 'visible') ? { done: true } : undefined;
      },
      `${this.describe()} to be ${state}`,
      options.timeoutMs,
    );
  }

  /** A real mouse click in the middle of the element, once it can receive one. */
  async click(): Promise<void> {
    const { x, y } = await this.actionPoint('clickable');
    await this.page.driver.click(x, y);
  }

  /** A real mouse moved to the middle of the element, once it can receive one (as Playwright's hover). */
  async hover(): Promise<void> {
    const { x, y } = await this.actionPoint('hoverable');
    await this.page.driver.move(x, y);
  }

  /**
   * The middle of the element in the top-level viewport, once nothing covers it and it has stopped
   * moving (a dialog that is still moving in is not clicked yet). In a frame, nothing of an outer document
   * may cover it either (a "loading" layer over the iframe): a click there would never reach the element.
   */
  private async actionPoint(what: string): Promise<{ x: number; y: number }> {
    let why = 'it is not there';
    /** The element's middle in the top-level viewport, or undefined (and `why`) while it cannot take a click. */
    const sample = async (): Promise<{ x: number; y: number } | undefined> => {
      const inFrame = (await this.run('point')) as Resolved & { x?: number; y?: number; retry?: string };
      if (inFrame.strict) throw new StrictError(`${this.describe()} matches ${inFrame.strict} elements`);
      why = inFrame.retry ?? (inFrame.missing ? 'it is not there' : 'it moves');
      if (inFrame.missing || inFrame.retry) return undefined;
      const outside = await this.page.pointThroughFrames(this.frames, { x: inFrame.x!, y: inFrame.y! });
      if ('covered' in outside) {
        why = `an element of an outer document is on top: ${outside.covered}`;
        return undefined;
      }
      return outside;
    };
    return this.page.waitFor(
      async () => {
        const first = await sample();
        if (!first) return undefined;
        // Stable: the same place a frame later, the frames it is in included.
        await sleep(50);
        const again = await sample();
        if (!again || again.x !== first.x || again.y !== first.y) return undefined;
        return first;
      },
      () => `${this.describe()} to be ${what} (last seen: ${why})`,
    );
  }

  async focus(): Promise<void> {
    await this.one((element: HTMLElement) => element.focus());
  }

  /** Replaces the value of an input, as a user typing it would (input events included). */
  async fill(value: string): Promise<void> {
    await this.waitFor({ state: 'visible' });
    await this.page.driver.fill(
      this.page.frameExpressions(this.frames),
      `(${inPage.toString()})(${JSON.stringify(this.steps)}, 'element', null, null)`,
      value,
    );
  }

  async press(key: string): Promise<void> {
    await this.focus();
    await this.page.driver.press(key);
  }

  async check(): Promise<void> {
    if (!(await this.one((element: HTMLInputElement) => element.checked))) await this.click();
  }

  async uncheck(): Promise<void> {
    if (await this.one((element: HTMLInputElement) => element.checked)) await this.click();
  }

  /** Selects the option with this value, with the events a user's choice fires (as Playwright does). */
  async selectOption(value: string): Promise<void> {
    await this.one((element: HTMLSelectElement, wanted: string) => {
      if (!Array.from(element.options).some((option) => option.value === wanted))
        throw new Error(`no option ${wanted}`);
      element.value = wanted;
      element.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      element.dispatchEvent(new Event('change', { bubbles: true }));
    }, value);
  }
}

export class StrictError extends Error {
  override name = 'StrictError';
}

export class MissingError extends Error {
  override name = 'MissingError';
}

export class EnginePage extends Scope {
  readonly keyboard = {
    press: (key: string) => this.driver.press(key),
    type: (text: string) => this.driver.type(text),
  };
  readonly mouse = {
    click: (x: number, y: number) => this.driver.click(x, y),
    move: (x: number, y: number) => this.driver.move(x, y),
  };

  constructor(readonly driver: DriverPage) {
    super(undefined as never, []);
    (this as unknown as { page: EnginePage }).page = this;
  }

  /** The expressions that find each <iframe> of `frames`, in its parent frame. */
  frameExpressions(frames: Step[][]): string[] {
    return frames.map((steps) => `(${inPage.toString()})(${JSON.stringify(steps)}, 'element', null, null)`);
  }

  /**
   * A point of the innermost frame's viewport in the top-level viewport, or what covers it: with `hitTest`,
   * at each level out the point must hit the iframe itself (across shadow roots), not a layer above it.
   */
  async pointThroughFrames(
    frames: Step[][],
    point: { x: number; y: number },
    hitTest = true,
  ): Promise<{ x: number; y: number } | { covered: string }> {
    let at = point;
    for (let i = frames.length - 1; i >= 0; i--) {
      const outer = await new Locator(this, frames.slice(0, i), frames[i]!).evaluate(
        (frame: HTMLIFrameElement, inner: { x: number; y: number; hitTest: boolean }) => {
          // The frame's content box: its border and padding lie between its box and its viewport.
          const rect = frame.getBoundingClientRect();
          const style = getComputedStyle(frame);
          const x = inner.x + rect.left + frame.clientLeft + parseFloat(style.paddingLeft);
          const y = inner.y + rect.top + frame.clientTop + parseFloat(style.paddingTop);
          if (!inner.hitTest) return { x, y };
          let hit: Element | null = document.elementFromPoint(x, y);
          while (hit?.shadowRoot) {
            const deeper = hit.shadowRoot.elementFromPoint(x, y);
            if (!deeper || deeper === hit) break;
            hit = deeper;
          }
          return hit === frame ? { x, y } : { covered: hit ? hit.outerHTML.slice(0, 120) : 'nothing' };
        },
        { ...at, hitTest },
      );
      if ('covered' in outer) return outer;
      at = outer;
    }
    return at;
  }

  /** Where the frame reached through `frames` sits in the top-level viewport (its content box). */
  async frameOffset(frames: Step[][]): Promise<{ x: number; y: number }> {
    return (await this.pointThroughFrames(frames, { x: 0, y: 0 }, false)) as { x: number; y: number };
  }

  /**
   * Polls `probe` until it returns a value (not undefined); errors other than a strict-mode violation
   * count as "not yet" (a frame that is still loading, a document being replaced).
   */
  async waitFor<T>(
    probe: () => Promise<T | undefined>,
    what: string | (() => string),
    timeoutMs = TIMEOUT_MS,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    for (;;) {
      try {
        const value = await probe();
        if (value !== undefined) return value;
      } catch (error) {
        if (error instanceof StrictError || error instanceof MissingError) throw error;
        lastError = error;
      }
      if (Date.now() > deadline)
        throw new Error(
          `Timed out waiting for ${typeof what === 'string' ? what : what()}${lastError ? `; last error: ${String(lastError)}` : ''}`,
        );
      await sleep(50);
    }
  }

  goto(url: string): Promise<void> {
    return this.driver.goto(url);
  }

  url(): Promise<string> {
    return this.driver.url();
  }

  /** Runs `fn(arg)` in the page's window and returns its JSON value. */
  async evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<Awaited<R>> {
    const source = `(async () => { const v = await (${fn.toString()})(${JSON.stringify(arg ?? null)}); return v === undefined ? { undefined: true } : { v }; })()`;
    return unwrap(await this.driver.evaluate([], source));
  }

  /** Runs a script's source in the page (a library such as axe-core), outside the page's CSP. */
  async addScript(source: string): Promise<void> {
    await this.driver.evaluate([], `(() => { ${source}\n; return { undefined: true }; })()`);
  }

  /** Waits until the top-level URL satisfies `accept`. */
  async waitForURL(accept: (url: URL) => boolean): Promise<void> {
    await this.waitFor(async () => (accept(new URL(await this.url())) ? true : undefined), 'the URL');
  }

  /** Runs `action` and waits until it has replaced the document with a new, loaded one. */
  async waitForNavigation(action: () => Promise<void>): Promise<void> {
    await this.evaluate(() => void ((window as unknown as { __hubEngineOld: boolean }).__hubEngineOld = true));
    await action();
    await this.waitFor(
      async () =>
        (await this.evaluate(
          () =>
            !(window as unknown as { __hubEngineOld?: boolean }).__hubEngineOld && document.readyState === 'complete',
        ))
          ? true
          : undefined,
      'the next document',
    );
  }

  setViewportSize({ width, height }: { width: number; height: number }): Promise<void> {
    return this.driver.setViewport(width, height);
  }

  /** The viewport, or with `selector` only that element of the top frame (through shadow roots). */
  async screenshot(options: { path?: string; selector?: string } = {}): Promise<Buffer> {
    const png = await this.driver.screenshot(
      options.selector ? this.frameExpressions([[{ kind: 'css', selector: options.selector }]])[0] : undefined,
    );
    if (options.path) await writeFile(options.path, png);
    return png;
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}
