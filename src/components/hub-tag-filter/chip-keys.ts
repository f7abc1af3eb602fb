// The filter's arrow keys: which chip a key moves the roving focus to. It loads with the form half
// (../hub-embed/later-half.ts): a pointer user's first screen does not need it, and a key pressed before it
// is in waits for it.

/**
 * The chip that `key`, pressed on chip `at` of `count`, moves the focus to: arrows one chip (wrapping
 * around; left and right swapped where the text runs right to left), Home and End the first and the last;
 * undefined for any other key, or when no chip had the key.
 */
export function chipKeyTarget(key: string, at: number, count: number, rtl: boolean): number | undefined {
  const forward = rtl ? -1 : 1;
  const step = {
    ArrowRight: forward,
    ArrowLeft: -forward,
    ArrowDown: 1,
    ArrowUp: -1,
    Home: -at,
    End: count - 1 - at,
  }[key];
  // typeof: a key named like an Object.prototype member (`toString`) must not count.
  if (typeof step != 'number' || at < 0) return undefined;
  return (at + step + count) % count;
}

/**
 * Moves the focus among `chips` for `event`, a keydown on `chip`, keeping the page from scrolling; returns
 * the chip focused, or undefined when the key is not one of the toolbar's. `chip` is the event's target as it
 * was dispatched: once the dispatch is over, an event from a shadow root has none.
 */
export function moveChipFocus(
  event: KeyboardEvent,
  chip: EventTarget | null,
  chips: HTMLElement[],
  rtl: boolean,
): number | undefined {
  const to = chipKeyTarget(event.key, chips.indexOf(chip as HTMLElement), chips.length, rtl);
  if (to === undefined) return undefined;
  event.preventDefault();
  chips[to]!.focus();
  return to;
}
