/** Page-level DOM the element reaches beyond its own shadow root. */

const preconnected = new Set<string>();

/**
 * Warms up the connection to an origin the widget is about to use. `cors` matters: API fetches use
 * anonymous CORS connections, the iframe does not, and the browser keeps the two apart.
 */
export function preconnect(href: string, cors: boolean): void {
  const origin = new URL(href).origin;
  // One warm-up each for the CORS and the plain connection to an origin.
  const key = cors ? origin + ' cors' : origin;
  if (preconnected.has(key)) return;
  preconnected.add(key);
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = origin;
  if (cors) link.crossOrigin = '';
  document.head.append(link);
}

/**
 * `own`, an element's update, settled; then once every element in its `root` (the filter, the grid with its
 * cards, the form frame) has rendered too: a Lit element's updateComplete; any other element has none.
 */
export async function childrenRendered(root: ParentNode, own: Promise<boolean>): Promise<boolean> {
  const done = await own;
  for (const child of root.querySelectorAll<Element & { updateComplete?: Promise<unknown> }>('*'))
    await child.updateComplete;
  return done;
}

/** document.activeElement, followed down through open shadow roots to the focused card. */
export function deepActive(): HTMLElement | undefined {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return (active as HTMLElement | null) ?? undefined;
}

interface Scheduler {
  postTask(task: () => void, options: { priority: 'background' }): Promise<unknown>;
}

/**
 * Runs `task` after what the page is doing now, at background priority where the browser has
 * `scheduler.postTask` (in the next task elsewhere). Not at an idle moment: a busy page may have none for
 * seconds, and a click in the meantime would wait for what could have been loading.
 */
export function atLowPriority(task: () => void): void {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (scheduler) void scheduler.postTask(task, { priority: 'background' }).catch(() => undefined);
  else setTimeout(task);
}
