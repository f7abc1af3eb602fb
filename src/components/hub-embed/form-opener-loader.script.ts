// The <script> builds' way to load the form half: the build puts form-opener.ts in a classic script of
// its own (dist/hub-embed.form.js beside dist/hub-embed.iife.js, the same file as hub-embed-webview.form.js beside
// the WebView bundle) and swaps this module in for
// form-opener-loader.ts (vite.config.ts). The chunk shares this file's Lit and helpers through one
// object instead of carrying copies: a second Lit could not render into the first one's templates.
import { adoptStyles, css, html, nothing } from 'lit';
import { HubError } from '../../core/errors.js';
import { isText } from '../../core/http.js';
import { define, HubElement } from '../base.js';
import { shared } from '../shared.styles.js';
import { fill, stringsFor } from '../strings.js';
import type { FormOpenerModule } from './form-opener-loader.js';

/** The chunk's file name and its SRI value, from the build. */
declare const __HUB_FORM_CHUNK_FILE__: string;
declare const __HUB_FORM_CHUNK_INTEGRITY__: string;

/** What the chunk imports from this file; the chunk's build maps every such import to this object. */
const exportsForChunk = {
  adoptStyles,
  css,
  html,
  nothing,
  HubError,
  isText,
  define,
  HubElement,
  shared,
  fill,
  stringsFor,
  formOpenerLoaded,
};

interface TrustedTypesWindow {
  trustedTypes?: {
    createPolicy(
      name: string,
      rules: { createScriptURL(url: string): string },
    ): {
      createScriptURL(url: string): string;
    };
  };
}

// Read while this file runs as a script: later, document.currentScript is another script or null.
const chunkUrl = new URL(
  __HUB_FORM_CHUNK_FILE__,
  (document.currentScript as HTMLScriptElement | null)?.src || location.href,
).href;

let loading: Promise<FormOpenerModule> | undefined;
let settle: ((module: FormOpenerModule) => void) | undefined;
let scriptUrl: string | undefined;

/** Called by the chunk when it has run. */
export function formOpenerLoaded(module: FormOpenerModule): void {
  settle?.(module);
}

/**
 * The URL as Trusted Types wants it on a page that requires them for scripts: through a policy named
 * `hub-embed` (docs/csp.md) that admits this one URL and nothing else. Made once: a page's CSP may
 * refuse a second policy of the same name.
 */
function trustedChunkUrl(): string {
  const factory = (window as TrustedTypesWindow).trustedTypes;
  scriptUrl ??= factory
    ? factory
        .createPolicy('hub-embed', {
          createScriptURL(url) {
            if (url !== chunkUrl) throw new TypeError(`hub-embed loads only ${chunkUrl}`);
            return url;
          },
        })
        .createScriptURL(chunkUrl)
    : chunkUrl;
  return scriptUrl;
}

/**
 * The form half, as a classic script beside this one, checked against its integrity value. `low`: fetched
 * behind the page's other requests (the load that hub-ready starts, with no click waiting for it).
 */
export function loadFormOpener(priority?: 'low'): Promise<FormOpenerModule> {
  loading ??= new Promise<FormOpenerModule>((resolve, reject) => {
    const fail = (cause?: unknown) => {
      loading = undefined;
      settle = undefined;
      reject(
        new HubError(
          'network',
          `Form code unreachable at ${chunkUrl}; serve it beside the widget's script and retry.`,
          { cause },
        ),
      );
    };
    settle = (module) => {
      settle = undefined;
      resolve(module);
    };
    (globalThis as { __hubEmbedFormChunk?: typeof exportsForChunk }).__hubEmbedFormChunk = exportsForChunk;
    try {
      const script = document.createElement('script');
      script.src = trustedChunkUrl();
      script.integrity = __HUB_FORM_CHUNK_INTEGRITY__;
      // SRI on a script from another origin (a CDN) needs a CORS fetch: '' is "anonymous", as for the preconnect.
      script.crossOrigin = '';
      if (priority) script.fetchPriority = priority;
      // A script that ran without handing over the form half was not this build's chunk.
      script.onload = () => settle && fail();
      script.onerror = () => fail();
      document.head.append(script);
    } catch (error) {
      fail(error);
    }
  });
  return loading;
}
