// The form half of <hub-embed> loads on intent (issue 25). The loader is replaced here by one whose
// answer each test controls, so that "before the chunk arrives" and "the chunk failed" are states a test
// can hold; what it hands over is the real form half.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { oneEvent } from '@open-wc/testing';
import type { FormOpenerModule } from '../../src/components/hub-embed/form-opener-loader.js';

const loader = vi.hoisted(() => ({
  calls: 0,
  /** How the next load goes; undefined: the real form half at once. */
  next: undefined as undefined | (() => Promise<unknown>),
  /** The load in flight or done: like the real loader, one load until one fails. */
  current: undefined as undefined | Promise<unknown>,
}));

vi.mock('../../src/components/hub-embed/form-opener-loader.js', () => ({
  loadFormOpener: () => {
    loader.calls++;
    const load = loader.next ?? (() => import('../../src/components/hub-embed/form-opener.js'));
    loader.next = undefined;
    loader.current ??= load().catch((error: unknown) => {
      loader.current = undefined;
      throw error;
    });
    return loader.current;
  },
}));

import '../../src/define.js';
import { HubError } from '../../src/core/errors.js';
import { cardsOf, clickCard, frameOf, gridOf, loadedEmbed, part, setupHub, until } from './helpers.js';

/** A load of the form half that settles when the test says. */
function heldLoad() {
  let arrive!: () => void;
  let fail!: (error: unknown) => void;
  const gate = new Promise<void>((resolve, reject) => {
    arrive = resolve;
    fail = reject;
  });
  loader.next = async () => {
    await gate;
    return (await import('../../src/components/hub-embed/form-opener.js')) as FormOpenerModule;
  };
  return { arrive, fail };
}

const cardControl = (el: Parameters<typeof cardsOf>[0], index = 0) => part(cardsOf(el)[index]!, 'card')!;

describe('<hub-embed> form half on intent', () => {
  beforeEach(() => {
    loader.calls = 0;
    loader.next = undefined;
    loader.current = undefined;
    // hub-ready's idle-time load is tested on its own; elsewhere it must not load the half unasked.
    vi.stubGlobal('requestIdleCallback', () => 0);
  });

  it('nothing loads the form half before intent; a pointer over a card, a focused card or a touched card does', async () => {
    for (const intent of ['pointerover', 'focusin', 'touchstart']) {
      loader.calls = 0;
      loader.current = undefined;
      const el = await loadedEmbed(setupHub());
      expect(loader.calls, 'after hub-ready, before any intent').toBe(0);
      gridOf(el).dispatchEvent(new Event(intent, { bubbles: true, composed: true }));
      expect(loader.calls, `${intent} on the grid, not on a card`).toBe(0);
      cardsOf(el)[1]!.dispatchEvent(new Event(intent, { bubbles: true, composed: true }));
      await until(() => loader.calls > 0, `${intent} on a card to load the form half`);
    }
  });

  it('the form half loads when the browser is idle after hub-ready', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (task: () => void) => idle.push(task));
    await loadedEmbed(setupHub());
    await until(() => idle.length > 0, 'an idle task after hub-ready');
    expect(loader.calls).toBe(0);
    for (const task of idle) task();
    expect(loader.calls).toBe(1);
  });

  it('a click before the form half arrives opens the form when it does; meanwhile the card is aria-busy', async () => {
    const el = await loadedEmbed(setupHub());
    const held = heldLoad();
    const opened = oneEvent(el, 'hub-form-open');
    await clickCard(el, 0);
    await until(() => cardControl(el).getAttribute('aria-busy') === 'true', 'the card to show busy');
    expect(frameOf(el)).toBeNull();
    held.arrive();
    const { detail } = await opened;
    expect(detail.shortCode).toBe(cardsOf(el)[0]!.table!.short_code);
    await until(() => !!frameOf(el), 'the form frame');
    await until(() => cardControl(el).getAttribute('aria-busy') === 'false', 'the card to be idle again');
  });

  it('a failed load of the form half is a HubError of kind network with a retry that opens the form: never a dead click', async () => {
    const el = await loadedEmbed(setupHub());
    const held = heldLoad();
    const failed = oneEvent(el, 'hub-error');
    await clickCard(el, 0);
    held.fail(new HubError('network', 'Form code unreachable; retry.'));
    const { detail } = await failed;
    expect(detail.error).toBeInstanceOf(HubError);
    expect(detail.error.kind).toBe('network');
    await until(() => !!part(el, 'retry'), 'the retry control');
    await until(() => cardControl(el).getAttribute('aria-busy') === 'false', 'the card to be idle again');
    expect(frameOf(el)).toBeNull();
    // The grid stays: the user can still see and pick tables.
    expect(cardsOf(el).length).toBeGreaterThan(0);
    const opened = oneEvent(el, 'hub-form-open');
    part(el, 'retry')!.click();
    await opened;
    await until(() => !!frameOf(el), 'the form frame after retry');
    await until(() => !part(el, 'error'), 'the error to clear');
  });
});
