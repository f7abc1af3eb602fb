// The form half of <hub-embed> loads at hub-ready, at low priority, or on intent before that (issue 25,
// issue 37 item 4). The loader is replaced here by one whose
// answer each test controls, so that "before the chunk arrives" and "the chunk failed" are states a test
// can hold; what it hands over is the real form half.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { oneEvent } from '@open-wc/testing';
import type { FormOpenerModule } from '../../src/components/hub-embed/form-opener-loader.js';

const loader = vi.hoisted(() => ({
  calls: 0,
  /** The priority each load was asked with. */
  priorities: [] as (string | undefined)[],
  /** How the next load goes; undefined: the real form half at once. */
  next: undefined as undefined | (() => Promise<unknown>),
  /** The load in flight or done: like the real loader, one load until one fails. */
  current: undefined as undefined | Promise<unknown>,
}));

vi.mock('../../src/components/hub-embed/form-opener-loader.js', () => ({
  loadFormOpener: (priority?: string) => {
    loader.calls++;
    loader.priorities.push(priority);
    const load = loader.next ?? (() => import('../../src/components/hub-embed/later-half.js'));
    loader.next = undefined;
    loader.current ??= load().catch((error: unknown) => {
      loader.current = undefined;
      throw error;
    });
    return loader.current;
  },
  // The keys of a filter and the cards past a grid's first screen wait for the load, as with the real loader.
  formHalf: () => undefined,
}));

import '../../src/define.js';
import { HubError } from '../../src/core/errors.js';
import { cardsOf, clickCard, frameOf, gridOf, inChromium, loadedEmbed, part, setupHub, until } from './helpers.js';

/**
 * A list that fits the grid's first screen: a longer one loads the half at once, for the cards past that
 * screen (the drawing schedule comes with it), which the tests of when it loads otherwise must not see.
 */
const FITS_FIRST_SCREEN = 'limit="3"';

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
    return (await import('../../src/components/hub-embed/later-half.js')) as FormOpenerModule;
  };
  return { arrive, fail };
}

const cardControl = (el: Parameters<typeof cardsOf>[0], index = 0) => part(cardsOf(el)[index]!, 'card')!;

describe('<hub-embed> form half on intent', () => {
  beforeEach(() => {
    loader.calls = 0;
    loader.priorities = [];
    loader.next = undefined;
    loader.current = undefined;
    // hub-ready's own load is tested on its own; elsewhere its task never runs, so that each test says
    // what loads the half.
    vi.stubGlobal('scheduler', { postTask: () => new Promise(() => undefined) });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('before the load that hub-ready starts has run, a pointer over a card, a focused card or a touched card loads the form half', async () => {
    for (const intent of ['pointerover', 'focusin', 'touchstart']) {
      loader.calls = 0;
      loader.current = undefined;
      const el = await loadedEmbed(setupHub(), FITS_FIRST_SCREEN);
      expect(loader.calls, 'after hub-ready, its task held back, before any intent').toBe(0);
      gridOf(el).dispatchEvent(new Event(intent, { bubbles: true, composed: true }));
      expect(loader.calls, `${intent} on the grid, not on a card`).toBe(0);
      cardsOf(el)[1]!.dispatchEvent(new Event(intent, { bubbles: true, composed: true }));
      await until(() => loader.calls > 0, `${intent} on a card to load the form half`);
      // The next widget at the top of the page, its first screen the whole list, as this one's was.
      el.remove();
    }
  });

  // happy-dom lays nothing out, so no list is longer than a first screen there: these two need Chromium.
  it.skipIf(!inChromium)(
    'a list longer than its first screen loads the form half at once, and the cards past that screen come with it',
    async () => {
      const held = heldLoad();
      const el = await loadedEmbed(setupHub());
      const first = cardsOf(el).length;
      expect(loader.calls).toBe(1);
      expect(first).toBeLessThan(gridOf(el).tables.length);
      held.arrive();
      await until(() => cardsOf(el).length === gridOf(el).tables.length, 'every card, once the half is in');
    },
  );

  it.skipIf(!inChromium)(
    'a list longer than its first screen is drawn whole when the form half cannot load',
    async () => {
      const held = heldLoad();
      const el = await loadedEmbed(setupHub());
      held.fail(new HubError('network', 'Form code unreachable; retry.'));
      await until(() => cardsOf(el).length === gridOf(el).tables.length, 'every card, in one step');
    },
  );

  it('hub-ready starts loading the form half, unasked, in a background-priority task and at low fetch priority', async () => {
    const tasks: { task: () => void; priority: string }[] = [];
    const postTask = (task: () => void, options: { priority: string }) => {
      tasks.push({ task, priority: options.priority });
      return new Promise(() => undefined);
    };
    vi.stubGlobal('scheduler', { postTask });
    await loadedEmbed(setupHub(), FITS_FIRST_SCREEN);
    await until(() => tasks.length > 0, 'a task after hub-ready');
    expect(tasks.map((t) => t.priority)).toEqual(['background']);
    expect(loader.calls).toBe(0);
    tasks[0]!.task();
    expect(loader.priorities).toEqual(['low']);
  });

  it('without scheduler.postTask, hub-ready starts loading the form half in the next task, not at an idle moment', async () => {
    vi.stubGlobal('scheduler', undefined);
    // An idle moment that never comes must not matter.
    vi.stubGlobal('requestIdleCallback', () => 0);
    await loadedEmbed(setupHub(), FITS_FIRST_SCREEN);
    await until(() => loader.calls > 0, 'the form half loading after hub-ready');
    expect(loader.priorities).toEqual(['low']);
  });

  it('a click before the form half arrives opens the form when it does; meanwhile the card is aria-busy', async () => {
    const el = await loadedEmbed(setupHub(), FITS_FIRST_SCREEN);
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
    const el = await loadedEmbed(setupHub(), FITS_FIRST_SCREEN);
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
