/**
 * Runs in the page, as its source: the plain-DOM baseline of hub-embed's page. Lighthouse's host pages
 * serve it as a script (bench/lighthouse.ts); time to ready runs it on the widget's network (bench/ready.ts).
 * It asks for what the widget asks for (a token from the same route, then the tags and the list with it,
 * or both with the token when the route prefetches them, as the widget takes them) and draws the same
 * content as plain elements: a chip for each tag, a count, and a card for each table with its icon, name,
 * industry and tags, in the widget's fonts, sizes, weights and boxes. No shadow roots, no templates: what
 * its audits show is what laying out this catalogue costs a fresh renderer here, whatever draws it.
 * `chunked`: the chips and the count in one task, then the cards as hub-embed draws them, 4 first, then as
 * many a task as its pace allows; else all in one go. `announce`: `plain-ready` on the document, its
 * hub-ready, once the cards on screen are drawn and laid out (all of them in one go, a screenful chunked);
 * without it, one go leaves the layout to the next frame, as a page that does not measure would.
 * A chip's click asks for the list of its tag and shows it as careful hand-written code would: the cards
 * it already has moved into the new order in one go and the count updated in place (the chip bench's
 * reference, bench/chip-inp.ts); `data-listed` on the root names the tag once they are.
 */
export function plainDomWidget(tokenRoute: string, apiRoot: string, chunked = false, announce = false): void {
  const el = (tag: string, className: string, text?: string) => {
    const node = document.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const style = document.createElement('style');
  style.textContent =
    '#plain{color:#1f2328;font:14px/1.4 system-ui,sans-serif}' +
    '.bar{display:flex;flex-wrap:wrap;gap:4px;overflow:auto;max-height:8.5em;padding:4px}' +
    '.chip{font:inherit;color:inherit;max-width:100%;border:1px solid #d1d9e0;border-radius:99px;background:#f6f8fa;' +
    'padding:4px 8px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}' +
    '.count{color:#59636e;margin:8px 0}' +
    '.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,15em),1fr));gap:8px}' +
    '.card{display:grid;grid-template:auto auto 1fr/40px minmax(0,1fr);gap:2px 8px;height:100%;box-sizing:border-box;' +
    'padding:8px;overflow-wrap:anywhere;border:1px solid #d1d9e0;border-radius:8px}' +
    '.icon{grid-row:span 3;width:40px;height:40px;border-radius:4px;object-fit:cover}' +
    '.name{display:-webkit-box;font-weight:600;overflow:hidden;-webkit-box-orient:vertical;-webkit-line-clamp:2}' +
    '.industry{color:#59636e}.tags{display:flex;flex-wrap:wrap;gap:4px}' +
    '.tag{overflow:hidden;white-space:nowrap;text-overflow:ellipsis;border-radius:99px;padding:0 6px;font-size:.85em;background:#f6f8fa}';
  document.head.append(style);
  const list = async (path: string, token: string) => {
    const response = await fetch(`${apiRoot}/projects/${path}`, { headers: { Authorization: `Bearer ${token}` } });
    const { data } = (await response.json()) as { data: { list: unknown[] } };
    return data.list;
  };
  // A task of its own, as <hub-table-grid>'s nextTask(): a message, which no timer clamping delays.
  const nextTask = () =>
    new Promise((resolve) => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = resolve;
      port2.postMessage(0);
    });
  const ready = () => announce && document.dispatchEvent(new Event('plain-ready'));
  void (async () => {
    const answer = await fetch(tokenRoute, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'initial', load: { tags: [] } }),
    });
    const { access_token: token, prefetched = {} } = (await answer.json()) as {
      access_token: string;
      prefetched?: Record<string, unknown[]>;
    };
    const answerFor = (path: string) =>
      Object.entries(prefetched).find(([key]) => key.includes(path))?.[1] ?? list(path, token);
    const [tags, tables] = await Promise.all([
      answerFor('published-tags') as Promise<string[]>,
      answerFor('published-list') as Promise<
        { short_code: string; name: string; industry: string; icon: string; tags: string[] }[]
      >,
    ]);
    const bar = el('div', 'bar');
    bar.setAttribute('role', 'toolbar');
    for (const tag of ['All', ...tags]) bar.append(el('button', 'chip', tag));
    const grid = el('div', 'grid');
    grid.setAttribute('role', 'list');
    const items = new Map<string, HTMLElement>();
    bar.addEventListener('click', async (event) => {
      const tag = (event.target as HTMLElement).closest('.chip')?.textContent;
      if (!tag || tag === 'All') return;
      const listed = (await list(`published-list?tags=${encodeURIComponent(tag)}`, token)) as typeof tables;
      document.querySelector('#plain .count')!.textContent = `${listed.length} tables`;
      grid.replaceChildren(...listed.map((table) => items.get(table.short_code) ?? card(table)));
      document.documentElement.dataset.listed = tag;
    });
    const card = (table: (typeof tables)[number]) => {
      const box = el('div', 'card');
      box.setAttribute('role', 'button');
      box.tabIndex = 0;
      const icon = el('img', 'icon') as HTMLImageElement;
      Object.assign(icon, { src: table.icon, alt: '', loading: 'lazy', width: 40, height: 40 });
      const tagList = el('span', 'tags');
      for (const tag of table.tags) tagList.append(el('span', 'tag', tag));
      box.append(icon, el('span', 'name', table.name), el('span', 'industry', table.industry), tagList);
      const item = el('div', 'item');
      item.setAttribute('role', 'listitem');
      item.append(box);
      items.set(table.short_code, item);
      return item;
    };
    document.getElementById('plain')!.append(bar, el('p', 'count', `${tables.length} tables`), grid);
    if (!chunked) {
      for (const table of tables) grid.append(card(table));
      if (announce) void grid.getBoundingClientRect();
      return void ready();
    }
    // As <hub-table-grid> paces its tasks (TASK_MS there): until the screen is full each is laid out in
    // itself, and the next draws twice as many after a task under 6 ms, as many after one under 12 ms,
    // else half; below the screen twice as many each task, laid out by the frames.
    await nextTask();
    void grid.getBoundingClientRect();
    let [drawn, count, filled] = [0, 4, false];
    while (drawn < tables.length) {
      await nextTask();
      const start = performance.now();
      for (const table of tables.slice(drawn, drawn + count)) grid.append(card(table));
      drawn += count;
      if (filled) {
        count *= 2;
        continue;
      }
      filled = grid.getBoundingClientRect().bottom >= innerHeight || drawn >= tables.length;
      if (filled) void ready();
      const spent = performance.now() - start;
      count = spent > 12 ? Math.ceil(count / 2) : spent > 6 ? count : 2 * count;
    }
  })();
}
