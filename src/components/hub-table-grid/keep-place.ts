// While a grid's screens are made again (another number of columns: the box resized, a theme or a locale
// whose font changes the cards' width), the card in focus keeps the focus, and the card the user sees first
// stays where it is on screen. It loads with the form half (../hub-embed/later-half.ts), as the drawing past
// a list's first screen does: a list that fits its first screen has nothing to lose.

/** The nearest ancestor of `node` that scrolls, across shadow roots; the document's scroller where none does. */
function scrollerOf(node: Element): Element {
  for (let at: Node | null = node.parentNode; at; at = at instanceof ShadowRoot ? at.host : at.parentNode)
    if (
      at instanceof Element &&
      at.scrollHeight > at.clientHeight &&
      /auto|scroll/.test(getComputedStyle(at).overflowY)
    )
      return at;
  return document.scrollingElement ?? document.documentElement;
}

/** The first of `nodes` whose bottom is below `top` (a viewport coordinate), if any. */
function firstBelow(nodes: Iterable<Element>, top: number): Element | undefined {
  for (const node of nodes) if (node.getBoundingClientRect().bottom > top) return node;
  return undefined;
}

/**
 * Notes, in the grid's shadow `root`, the card in focus and the card the user sees first (the focused one,
 * else the first whose bottom is in view), and returns what puts them back once the screens are made again
 * with the same cards: the focus on that card, without scrolling, and that card at the same height on
 * screen, by scrolling its scroller by what it moved.
 */
export function keepPlace(root: ShadowRoot): () => void {
  const focused = root.activeElement instanceof HTMLElement ? root.activeElement : null;
  const scroller = scrollerOf(root.host);
  const viewTop = scroller === document.scrollingElement ? 0 : scroller.getBoundingClientRect().top;
  const screen = firstBelow(root.querySelectorAll('.screen'), viewTop);
  const card = focused?.closest('[role="listitem"]') ?? (screen && firstBelow(screen.children, viewTop));
  const top = card?.getBoundingClientRect().top;
  return () => {
    if (focused?.isConnected && root.activeElement !== focused) focused.focus({ preventScroll: true });
    if (card?.isConnected && top !== undefined) scroller.scrollTop += card.getBoundingClientRect().top - top;
  };
}
