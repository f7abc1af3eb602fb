// The server's first view as a user meets it before any script (issue 80, "Done when"): renderFirstView's
// markup parsed as HTML, its element not defined yet, in each look. A user may read it, Tab through it and
// press a card before the script runs, so it answers to the same axe and focus-ring checks as the elements.
import { afterEach } from 'vitest';
import { otherLocales } from '../../src/components/locales/other-locales.js';
import { stringsFor } from '../../src/components/strings.js';
import { firstViewMarkup } from '../../src/first-view/first-view-markup.js';
import { describeAccessible, type Look } from './accessible.js';
import { publishedAnswers, setupHub } from './helpers.js';

let page: HTMLElement | undefined;
afterEach(() => {
  page?.remove();
  page = undefined;
});

/**
 * The view for `look`, with `selected` tags, on a page of the look's colour scheme. The element's name is
 * one no script defines, so that the view stays the server's, as it is before the script has run.
 */
async function viewBeforeScript(look: Look, selected: string[]): Promise<Element> {
  const s = setupHub();
  const { offered, tables } = await publishedAnswers(s.hub, { tags: selected, limit: 12 });
  const markup = firstViewMarkup({
    attributes: [
      ['token-endpoint', s.endpoint],
      ['locale', look.locale],
    ],
    strings: look.locale === 'en' ? stringsFor('en') : otherLocales[look.locale],
    offered,
    tables,
    selected,
    matchesOnly: false,
  });
  page = document.createElement('div');
  page.style.cssText = `color-scheme: ${look.theme}; background: Canvas; color: CanvasText; padding: 8px`;
  document.body.append(page);
  page.setHTMLUnsafe(
    markup.replace(/^<hub-embed\b/, '<hub-view-before-script').replace(/<\/hub-embed>$/, '</hub-view-before-script>'),
  );
  return page.firstElementChild!;
}

describeAccessible({
  "the server's first view before the script": (look) => viewBeforeScript(look, []),
  "the server's first view before the script, a tag selected (matches, then the others)": (look) =>
    viewBeforeScript(look, ['建筑']),
});
