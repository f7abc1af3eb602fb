// The e2e suite's second way of serving its pages (issue 80, "Done when"): with HUB_FIRST_VIEW=server, every
// `<hub-embed>` a page holds empty is written with its first view inside, by renderFirstView, as a server
// page would be, so that each test runs against the element taking a server's view over instead of drawing
// its own. scripts/e2e.mjs runs the suite both ways. HUB_FIRST_VIEW_LOG=1 prints, for each page served, how
// many of its elements got a view.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createServerClient,
  createTokenHandler,
  renderFirstView,
  type FirstViewElement,
  type TokenHandler,
} from '../../src/server/index.js';
import type { HubLocale } from '../../src/core/locale.js';

/** Whether this run serves the pages with the server's first views (scripts/e2e.mjs sets it). */
export const SERVER_FIRST_VIEWS = process.env.HUB_FIRST_VIEW === 'server';

/** An element written empty, as the suite's pages write it (harness.ts, widget()). */
const EMPTY_EMBED = /<hub-embed\b([^>]*)><\/hub-embed>/g;
/** A classic <script> of a bundle of ours that blocks the parser: no defer, async or type. */
const BLOCKING_BUNDLE = /<script src="[^"]*\/hub-embed[\w-]*\.iife\.js"[^>]*?(?<!defer|async)>/g;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:="([^"]*)")?/g;
/** The attributes renderFirstView writes from its options; any other is carried over as the page wrote it. */
const DRAWN = new Set([
  'token-endpoint',
  'base-url',
  'form-url',
  'tags',
  'limit',
  'matches-only',
  'theme',
  'open-mode',
  'locale',
]);

const unescape = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');

/** What one served page's request gives renderFirstView: the session cookie that names its user. */
export type PageRequest = Pick<IncomingMessage, 'url' | 'headers'>;
/** Writes a page's first views (firstViewWriter). */
export type FirstViewWriter = (page: ServedPage, request: PageRequest) => Promise<ServedPage>;
/** A page as the harness serves it. */
export interface ServedPage {
  html: string;
  headers: Record<string, string>;
}

/**
 * A token route for renderFirstView to read, made as an integrator makes it (prefetch on), for the user
 * `resolveClientUserId` names, as the route the widget asks names them. It stands beside that route, which
 * stays as it is, so that the widget's own token request and lists are what they are without a first view.
 */
export function pageTokens(
  service: { apiKey: string; baseUrl: string },
  resolveClientUserId: (request: Request) => string | null,
): TokenHandler {
  const client = createServerClient({ apiKey: service.apiKey, baseUrl: service.baseUrl });
  return createTokenHandler({ client, resolveClientUserId, prefetch: true });
}

/** How many views this file's writers have drawn. */
let viewsDrawn = 0;
let watching = false;

/**
 * Fails a file that serves its pages through a writer and has it draw no view: with its pages out of a
 * server's reach (another token route, a page of its own), its second pass tests nothing the first did not,
 * and scripts/e2e.mjs's NO_SERVER_VIEW should name it instead. Only once the file's tests all passed: a
 * failure of their own says more.
 */
function watchForNoView(): void {
  if (watching || !SERVER_FIRST_VIEWS) return;
  watching = true;
  process.once('beforeExit', () => {
    if (viewsDrawn > 0 || process.exitCode) return;
    console.error("# first views: none drawn in this file; name it in scripts/e2e.mjs's NO_SERVER_VIEW");
    process.exitCode = 1;
  });
}

/**
 * Writes first views into pages: `tokensFor` names the token route (pageTokens) of an element's
 * `token-endpoint`, or undefined for an endpoint the page's server does not draw for.
 */
export function firstViewWriter(tokensFor: (tokenEndpoint: string) => TokenHandler | undefined): FirstViewWriter {
  watchForNoView();
  /** The element's settings as renderFirstView takes them, or undefined for one no server would draw for. */
  function settingsOf(
    attributes: Map<string, string | true>,
    pageLanguage: string | undefined,
  ): [TokenHandler, FirstViewElement, HubLocale] | undefined {
    const text = (name: string) => {
      const value = attributes.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    // An element without a locale speaks the page's language: the server writes the one it knows.
    const locale = (text('locale') ?? pageLanguage) as HubLocale | undefined;
    const tokenEndpoint = text('token-endpoint');
    const tokens = tokenEndpoint === undefined ? undefined : tokensFor(tokenEndpoint);
    // A locale the element does not know is renderFirstView's to refuse (below), as an integrator's would be.
    if (!tokens || !locale) return undefined;
    const element: FirstViewElement = {
      tokenEndpoint,
      ...(text('base-url') !== undefined ? { baseUrl: text('base-url') } : {}),
      ...(text('form-url') !== undefined ? { formUrl: text('form-url') } : {}),
      ...(text('tags') !== undefined ? { tags: text('tags')!.split(',') } : {}),
      ...(text('limit') !== undefined ? { limit: Number(text('limit')) } : {}),
      ...(attributes.has('matches-only') ? { matchesOnly: true } : {}),
      ...(text('theme') !== undefined ? { theme: text('theme') as FirstViewElement['theme'] } : {}),
      ...(text('open-mode') !== undefined ? { openMode: text('open-mode') as FirstViewElement['openMode'] } : {}),
    };
    return [tokens, element, locale];
  }

  /** One element with its first view, its other attributes carried over; as written when none can be drawn. */
  async function withView(
    written: string,
    attributeText: string,
    request: Request,
    pageLanguage: string | undefined,
    styleNonce?: string,
  ): Promise<string> {
    const attributes = new Map<string, string | true>();
    for (const [, name, value] of attributeText.matchAll(ATTRIBUTE))
      attributes.set(name!, value === undefined ? true : unescape(value));
    const settings = settingsOf(attributes, pageLanguage);
    if (!settings) return written;
    let html: string;
    try {
      html = await renderFirstView({
        tokens: settings[0],
        request,
        element: settings[1],
        locale: settings[2],
        ...(styleNonce ? { styleNonce } : {}),
      });
    } catch {
      // Settings the server refuses (a test's hostile attribute): such a page is the element's to refuse.
      return written;
    }
    const carried = [...attributes]
      .filter(([name]) => !DRAWN.has(name))
      .map(([name, value]) =>
        value === true ? ` ${name}` : ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`,
      );
    return html.replace(/^<hub-embed/, `<hub-embed${carried.join('')}`);
  }

  /**
   * The page with a first view in each empty `<hub-embed>` its server can draw for. Under a policy whose
   * style-src allows no inline style, the view's styles carry a nonce the policy names, as docs/csp.md asks of
   * a page with a first view; a page with no view is served as written.
   */
  return async function writeFirstViews(page: ServedPage, request: PageRequest): Promise<ServedPage> {
    const pageRequest = new Request(new URL(request.url ?? '/', 'http://page.invalid'), {
      headers: { cookie: String(request.headers.cookie ?? '') },
    });
    const policy = page.headers['content-security-policy'];
    const styleNonce = policy && /(^|;)\s*style-src\b/.test(policy) ? randomBytes(16).toString('base64') : undefined;
    const language = /<html[^>]*\slang="([^"]+)"/.exec(page.html)?.[1];
    const found = [...page.html.matchAll(EMPTY_EMBED)];
    const views = await Promise.all(
      found.map(([written, attributeText]) => withView(written, attributeText!, pageRequest, language, styleNonce)),
    );
    const drawn = views.filter((view) => view.includes('data-first-view')).length;
    viewsDrawn += drawn;
    if (process.env.HUB_FIRST_VIEW_LOG) console.error(`# first views: ${drawn} of ${views.length} in ${request.url}`);
    if (!drawn) return page;
    let at = 0;
    // A page with a first view loads the registration after its elements are parsed, as docs/frameworks.md
    // says: a bundle run before would give each element its own shadow root before the parser reaches the
    // view's, and the view would be dropped (with an error in the console).
    const html = page.html
      .replace(EMPTY_EMBED, () => views[at++]!)
      .replace(BLOCKING_BUNDLE, (tag) => tag.replace(/>$/, ' defer>'));
    const headers = styleNonce
      ? {
          ...page.headers,
          'content-security-policy': policy!.replace(/(^|;)(\s*style-src\b)/, `$1$2 'nonce-${styleNonce}'`),
        }
      : page.headers;
    return { html, headers };
  };
}

/**
 * For a test of how the element draws its own first view (the form half's lazy load, the skeletons): the
 * reason it is skipped in a run with server views, `why` saying where that run's own rule is tested; false
 * in a run without, so that `it(name, { skip: withoutFirstView(why) }, …)` runs it there.
 */
export function withoutFirstView(why: string): string | false {
  return SERVER_FIRST_VIEWS && `the element's own first view: ${why}`;
}

/** Answers `request` with the page, its first views written when there is a writer (a run with server views). */
export async function sendPage(
  res: ServerResponse,
  page: ServedPage,
  request: PageRequest,
  write?: FirstViewWriter,
): Promise<void> {
  const served = write ? await write(page, request) : page;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...served.headers });
  res.end(served.html);
}
