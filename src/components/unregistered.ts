// An unregistered tag is an empty element: no error of its own, nothing on screen. The bindings register
// nothing (registration is the app's one line, `hub-embed/define`, so that it happens once and where the app
// chooses), so each says, in the browser and once per tag, which line is missing.
// The check waits for the page to have loaded: a registration may come after the binding mounts (from a
// chunk loaded late, a useVisibleTask$ or a client-only plugin), and is missing only if it has not come by
// then. Where a framework's module top level runs only on the server (Qwik, React Server Components), an
// import of `hub-embed/define` there never reaches the browser, and this note is what says so.

/** The tags checked or being checked: each is said at most once per page. */
const checked = new Set<string>();

/** Runs `check` once the page has loaded: after its `load` event, and the tasks queued before that. */
function whenLoaded(check: () => void): void {
  if (document.readyState === 'complete') setTimeout(check);
  else addEventListener('load', () => setTimeout(check), { once: true });
}

/**
 * Logs one console error when `tag` is still not registered once the page has loaded; nothing on a server,
 * nothing twice.
 */
export function sayIfUnregistered(binding: string, tag: string, shownAs: string): void {
  if (typeof customElements === 'undefined' || customElements.get(tag) || checked.has(tag)) return;
  checked.add(tag);
  whenLoaded(() => {
    if (customElements.get(tag)) return;
    console.error(
      `${binding}: ${shownAs} rendered <${tag}>, which is not registered, so it shows nothing. ` +
        (tag === 'hub-form-frame'
          ? "Add `import 'hub-embed/define'` and await loadFormOpener() (from 'hub-embed/plumbing') before rendering it."
          : "Add `import 'hub-embed/define'` once, where the app runs code in the browser: it registers the elements."),
    );
  });
}
