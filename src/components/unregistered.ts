// An unregistered tag is an empty element: no error of its own, nothing on screen. The bindings register
// nothing (registration is the app's one line, `hub-embed/define`, so that it happens once and where the app
// chooses), so each says, in the browser and once per tag, which line is missing.

const told = new Set<string>();

/** Logs one console error when `tag` is not registered in this page; nothing on a server, nothing twice. */
export function sayIfUnregistered(binding: string, tag: string, shownAs: string): void {
  if (typeof customElements === 'undefined' || customElements.get(tag) || told.has(tag)) return;
  told.add(tag);
  console.error(
    `${binding}: ${shownAs} rendered <${tag}>, which is not registered, so it shows nothing. ` +
      (tag === 'hub-form-frame'
        ? "Add `import 'hub-embed/define'` and await loadFormOpener() (from 'hub-embed/plumbing') before rendering it."
        : "Add `import 'hub-embed/define'` once, in the app's entry: it registers the elements."),
  );
}
