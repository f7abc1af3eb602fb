// The FormPreparer on its own (form-preparer.ts), driven through a bare element and a seat: which frame
// the opener is handed for a click, and what a token arriving late may still prepare. The element-level
// rules (rests, presses, leaving, the modes) are in hub-embed-prepare.test.ts.
import { describe, expect, it } from 'vitest';
import type { PublishedTable } from '../../src/core/types.js';
import { buildFormUrl } from '../../src/core/token-links.js';
import { FormPreparer, PREPARE_AFTER_MS, type PreparerSeat } from '../../src/components/hub-embed/form-preparer.js';
import type { HubFormFrame } from '../../src/components/hub-form-frame/hub-form-frame.js';
import type { CardNode } from '../../src/components/hub-table-card/card-template.js';

const SITE = 'https://forms.example.com/f';
const table = (code: string): PublishedTable => ({ short_code: code, name: code, industry: '', tags: [] });

/** An element with two cards (list items carrying their table, as the grid's are) and a seat whose tokens the test hands out. */
function setup() {
  const element = document.createElement('div');
  document.body.append(element);
  const cards = ['k3Xp9a', 'Q7mZ2b'].map((code) => {
    const card: CardNode = document.createElement('div');
    card.setAttribute('role', 'listitem');
    card.table = table(code);
    element.append(card);
    return card;
  });
  const tokens: Array<(token: string) => void> = [];
  const frames: HubFormFrame[] = [];
  let allowed = true;
  const seat: PreparerSeat = {
    token: () => new Promise<string>((resolve) => tokens.push(resolve)),
    mayPrepare: () => allowed,
    heldFrame: () => {
      const frame = document.createElement('div') as unknown as HubFormFrame;
      frames.push(frame);
      return frame;
    },
  };
  const host = Object.assign(element, { formUrl: SITE, renderRoot: element, requestUpdate: () => undefined });
  const preparer = new FormPreparer(host, seat);
  const pointer = (type: string, target: Element) =>
    target.dispatchEvent(new PointerEvent(type, { bubbles: true, composed: true, pointerType: 'mouse' }));
  /** Hands out the token the preparer asked for last, and lets its continuation run. */
  const giveToken = async (token: string) => {
    tokens.shift()!(token);
    await new Promise((resolve) => setTimeout(resolve));
  };
  return {
    preparer,
    cards,
    frames,
    pointer,
    giveToken,
    forbid: () => (allowed = false),
    /** The mouse leaves (which stops a rest still timing, as it would on a page) and the element goes. */
    done: () => {
      element.dispatchEvent(new PointerEvent('pointerleave', { pointerType: 'mouse' }));
      element.remove();
    },
  };
}

describe('FormPreparer', () => {
  it('hands over the prepared frame only for the URL it was prepared with: another token gets none, and nothing stays prepared', async () => {
    const t = setup();
    t.pointer('pointerdown', t.cards[0]!);
    await t.giveToken('token-1');
    expect(t.preparer.prepared?.url).toBe(buildFormUrl(SITE, 'k3Xp9a', 'token-1'));
    // The click's token is newer: the prepared page holds the old one and is not this click's form.
    expect(t.preparer.take(buildFormUrl(SITE, 'k3Xp9a', 'token-2'))).toBeUndefined();
    expect(t.preparer.prepared).toBeUndefined();

    t.pointer('pointerdown', t.cards[1]!);
    await t.giveToken('token-2');
    // Another table's URL, same token: not this frame either.
    expect(t.preparer.take(buildFormUrl(SITE, 'k3Xp9a', 'token-2'))).toBeUndefined();

    t.pointer('pointerdown', t.cards[0]!);
    await t.giveToken('token-2');
    expect(t.preparer.take(buildFormUrl(SITE, 'k3Xp9a', 'token-2'))).toBe(t.frames.at(-1));
    t.done();
  });

  it('a token that arrives after the pointer left the card prepares nothing', async () => {
    const t = setup();
    t.pointer('pointerover', t.cards[0]!);
    await new Promise((resolve) => setTimeout(resolve, PREPARE_AFTER_MS * 2));
    // The rest asked for a token; the pointer moves on to the other card before it comes.
    t.pointer('pointermove', t.cards[1]!);
    await t.giveToken('token-1');
    expect(t.frames).toHaveLength(0);
    expect(t.preparer.prepared).toBeUndefined();
    t.done();
  });

  it('the opener is asked again when the token arrives: a form opened meanwhile keeps anything from being prepared', async () => {
    const t = setup();
    t.pointer('pointerdown', t.cards[0]!);
    t.forbid();
    await t.giveToken('token-1');
    expect(t.frames).toHaveLength(0);
    expect(t.preparer.prepared).toBeUndefined();
    t.done();
  });
});
