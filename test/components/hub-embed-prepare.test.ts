// A pointer resting on a card prepares its form (issue 25: the click after intent finds the form loaded):
// the form page loads in the closed dialog, the click shows that frame, and nothing is told before it opens.
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/define.js';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import type { HubFormFrame } from '../../src/components/hub-form-frame/hub-form-frame.js';
import { loadFormOpener } from '../../src/components/hub-embed/form-opener-loader.js';
import { PREPARE_AFTER_MS, PREPARED_FOR_MS } from '../../src/components/hub-embed/form-preparer.js';
import { cardsOf, clickCard, frameOf, loadedEmbed, part, setupHub, until } from './helpers.js';

/** A pointer arriving over the card at `index`, as the browser reports it (composed, from inside the card). */
function pointerOver(el: HubEmbed, index: number, type = 'pointerover', pointerType = 'mouse'): void {
  const control = part(cardsOf(el)[index]!, 'card')!;
  control.dispatchEvent(new PointerEvent(type, { bubbles: true, composed: true, pointerType }));
}

/** A pointer moving inside the widget over no card (the grid's count line). */
function pointerOffCards(el: HubEmbed): void {
  part(el.shadowRoot!.querySelector('hub-table-grid')!, 'count')!.dispatchEvent(
    new PointerEvent('pointermove', { bubbles: true, composed: true, pointerType: 'mouse' }),
  );
}

const dialogOf = (el: HubEmbed) => el.shadowRoot!.querySelector('dialog');
const rest = () => new Promise((resolve) => setTimeout(resolve, PREPARE_AFTER_MS * 2));

/**
 * A widget whose form half is in and listening: the first pointer over a card brought it (in every open
 * mode). Its opener, and the preparer that listens to pointers, are made as the half's load settles for
 * the element, which asked for it first: awaiting the same load here comes after. Not a fixed wait: on a
 * busy machine the half's first load took longer than one, and the pointer of the test then went unheard.
 */
async function withFormHalf(attrs: string | Record<string, string> = {}) {
  const s = setupHub();
  const el = await loadedEmbed(s, attrs);
  pointerOver(el, 1);
  await loadFormOpener();
  await rest();
  // The half may have been in already (hub-ready starts it) and prepared that card: each test starts
  // with the pointer off the cards and nothing prepared.
  pointerOffCards(el);
  await el.updateComplete;
  return { s, el };
}

/** Rests a pointer on the card at `index` until its form is prepared; the frame it loads in. */
async function prepare(el: HubEmbed, index: number) {
  pointerOver(el, index);
  await until(() => frameOf(el)?.shortCode === cardsOf(el)[index]!.table!.short_code, 'a prepared frame');
  return frameOf(el)!;
}

/**
 * Loads the frame's page again and gives up on it at once. On the clock, not on the network: the form
 * site is not there, and a refused connection's error page fires `load` 25 ms after the retry in Chromium's
 * headless shell (250 ms in the full browser), which on a busy machine came before a 1 ms timeout.
 */
function timeOut(frame: HubFormFrame) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    frame.timeout = 1;
    frame.retry();
    vi.advanceTimersByTime(1);
  } finally {
    vi.useRealTimers();
  }
}

describe('<hub-embed> prepares the form of the card a pointer rests on', () => {
  afterEach(() => {
    vi.useRealTimers();
    delete (navigator as { connection?: unknown }).connection;
  });

  it('a pointer resting on a card loads its form in the closed dialog, and tells nobody, not even a capturing listener', async () => {
    const { el } = await withFormHalf();
    const told: string[] = [];
    const tell = (event: Event) => told.push(event.type);
    const types = ['hub-form-open', 'hub-form-message', 'hub-error'];
    for (const type of types) document.addEventListener(type, tell, { capture: true });
    const frame = await prepare(el, 0);
    const table = cardsOf(el)[0]!.table!;
    expect(frame.shortCode).toBe(table.short_code);
    expect(frame.held).toBe(true);
    expect(new URL(frame.src).pathname).toBe(`/${encodeURIComponent(table.short_code)}`);
    expect(new URL(frame.src).searchParams.get('token')).toBeTruthy();
    expect(dialogOf(el)!.open).toBe(false);
    // The prepared page times out: the frame keeps its error to itself.
    timeOut(frame);
    // Waited for, not slept on: beside the type check on two cores, a fixed 200 ms was once too short.
    await until(() => part(frame, 'error') !== null, 'the prepared frame to show its timeout');
    // And a while after it, for any event it might still send.
    await rest();
    for (const type of types) document.removeEventListener(type, tell, { capture: true });
    expect(told).toEqual([]);
  });

  it('the click on the prepared card shows that same frame, then tells what happened to it meanwhile', async () => {
    const { el } = await withFormHalf();
    const prepared = await prepare(el, 0);
    const src = prepared.src;
    timeOut(prepared);
    await rest();
    const told: string[] = [];
    el.addEventListener('hub-form-open', () => told.push('open'));
    el.addEventListener('hub-error', (event) => told.push(`error ${event.detail.error.kind}`));
    await clickCard(el, 0);
    await until(() => dialogOf(el)!.open, 'the dialog to open');
    await until(() => told.length === 2, 'the held error');
    // The same element with the same URL: its iframe was not made again, so its page is not loaded again.
    expect(frameOf(el)).toBe(prepared);
    expect(frameOf(el)!.src).toBe(src);
    expect(frameOf(el)!.held).toBe(false);
    expect(told).toEqual(['open', 'error timeout']);
  });

  it('a pointer crossing cards prepares only the one it rests on; resting on another prepares it in a new frame, and the one before leaves', async () => {
    const { el } = await withFormHalf();
    pointerOver(el, 0);
    pointerOver(el, 1);
    await until(() => !!frameOf(el), 'a prepared frame');
    expect(frameOf(el)!.shortCode).toBe(cardsOf(el)[1]!.table!.short_code);
    const frame = frameOf(el)!;
    const iframe = part(frame, 'iframe');
    // A new element, so a new iframe: moving one iframe's src would add a session-history entry.
    const next = await prepare(el, 2);
    expect(next).not.toBe(frame);
    expect(part(next, 'iframe')).not.toBe(iframe);
    expect(frame.isConnected).toBe(false);
    expect(el.shadowRoot!.querySelectorAll('hub-form-frame')).toHaveLength(1);
  });

  it('a pointer moving from card to card prepares each (pointermove: pointerover stops at the grid between two cards)', async () => {
    const { el } = await withFormHalf();
    for (const index of [2, 0]) {
      pointerOver(el, index, 'pointermove');
      await until(() => frameOf(el)?.shortCode === cardsOf(el)[index]!.table!.short_code, `card ${index} prepared`);
    }
  });

  it('a mouse leaving the prepared card, to no card or out of the widget, drops its form', async () => {
    const { el } = await withFormHalf();
    await prepare(el, 0);
    pointerOffCards(el);
    await el.updateComplete;
    expect(frameOf(el)).toBeNull();
    await prepare(el, 2);
    el.dispatchEvent(new PointerEvent('pointerleave', { pointerType: 'mouse' }));
    await el.updateComplete;
    expect(frameOf(el)).toBeNull();
  });

  it('a finger lifted from a card keeps its form for the click that follows; nobody opening it drops it after a few seconds', async () => {
    // Timers that run with the clock, and that the test can move on by the few seconds a prepared form is kept.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const { el } = await withFormHalf();
    pointerOver(el, 0, 'pointerdown', 'touch');
    await until(() => frameOf(el)?.shortCode === cardsOf(el)[0]!.table!.short_code, 'the pressed card prepared');
    const frame = frameOf(el)!;
    el.dispatchEvent(new PointerEvent('pointerleave', { pointerType: 'touch' }));
    await el.updateComplete;
    expect(frameOf(el)).toBe(frame);
    await vi.advanceTimersByTimeAsync(PREPARED_FOR_MS - 100);
    expect(frameOf(el)).toBe(frame);
    await vi.advanceTimersByTimeAsync(200);
    await el.updateComplete;
    expect(frameOf(el)).toBeNull();
    expect(frame.isConnected).toBe(false);
  });

  it('a press on a card prepares its form at once, before any rest', async () => {
    const { el } = await withFormHalf();
    const code = cardsOf(el)[2]!.table!.short_code;
    pointerOver(el, 2, 'pointerdown');
    // A press alone, with no pointerover before it: no rest began, only the press can have prepared it.
    await until(() => frameOf(el)?.shortCode === code, 'the pressed card prepared');
  });

  it("a prepared page that is never opened says nothing as another form: its window is not the next form's", async () => {
    const { el } = await withFormHalf();
    const first = await prepare(el, 0);
    // The window and origin a message from the first page comes with.
    const window0 = part<HTMLIFrameElement>(first, 'iframe')!.contentWindow!;
    const origin = new URL(first.src).origin;
    await prepare(el, 2);
    await clickCard(el, 2);
    await until(() => dialogOf(el)!.open, 'the dialog to open');
    const heard: unknown[] = [];
    el.addEventListener('hub-form-message', (event) => heard.push(event.detail.data));
    // The first page speaks late, as a page that was navigated away from can (the message was already queued).
    dispatchEvent(new MessageEvent('message', { source: window0, origin, data: 'from the first page' }));
    await el.updateComplete;
    expect(heard).toEqual([]);
  });

  it("a click on another card than the prepared one opens that card's form in a frame of its own; the prepared one leaves", async () => {
    const { el } = await withFormHalf();
    const prepared = await prepare(el, 0);
    await clickCard(el, 2);
    await until(() => dialogOf(el)!.open, 'the dialog to open');
    expect(frameOf(el)!.shortCode).toBe(cardsOf(el)[2]!.table!.short_code);
    expect(frameOf(el)).not.toBe(prepared);
    expect(el.shadowRoot!.querySelectorAll('hub-form-frame')).toHaveLength(1);
  });

  it('nothing is prepared inline, by navigation, with an openFormHook, or when the user saves data', async () => {
    for (const setting of ['inline', 'navigate', 'hook', 'save-data'] as const) {
      // Save-Data as the browser reports it (an own property shadows NetworkInformation's getter).
      if (setting === 'save-data')
        Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true });
      const { el } = await withFormHalf(setting === 'inline' || setting === 'navigate' ? { 'open-mode': setting } : {});
      if (setting === 'hook') el.openFormHook = () => false;
      pointerOver(el, 0);
      await rest();
      // Nothing prepared, not merely nothing shown: a later switch to the modal mode finds no form either.
      if (setting === 'inline' || setting === 'navigate') {
        el.openMode = 'modal';
        await el.updateComplete;
      }
      expect(frameOf(el), setting).toBeNull();
      el.remove();
      delete (navigator as { connection?: unknown }).connection;
    }
  });

  it('closing an opened form leaves nothing prepared behind', async () => {
    const { el } = await withFormHalf();
    await prepare(el, 0);
    await clickCard(el, 0);
    await until(() => dialogOf(el)!.open, 'the dialog to open');
    expect(el.closeForm()).toBe(true);
    await el.updateComplete;
    expect(frameOf(el)).toBeNull();
  });
});
