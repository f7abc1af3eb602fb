// The <script> builds' way to load the form half: the build puts form-opener.ts in a classic script of
// its own (dist/hub-embed.form.js beside dist/hub-embed.iife.js, the same file as hub-embed-webview.form.js
// beside the WebView bundle) and swaps this module in for form-opener-loader.ts (build/script-form-loader.ts). A classic
// script cannot import, so the half finds what it shares with this file, its imports module (../form-half-imports.ts), on
// a global that this loader sets before adding the script, and leaves its exports on another.
import type * as FormChunkLink from '../form-half-imports.js';
import {
  adoptStyles,
  css,
  define,
  fill,
  html,
  HubElement,
  HubError,
  isText,
  nextTask,
  nothing,
  preconnect,
  shared,
} from '../form-half-imports.js';
import type { FormOpenerModule } from './form-opener-loader.js';

/** The chunk's file name and its SRI value, from the build. */
declare const __HUB_FORM_CHUNK_FILE__: string;
declare const __HUB_FORM_CHUNK_INTEGRITY__: string;

/** The two globals of the chunk's build (build/form-half-imports.ts): where it reads its imports module and leaves its exports. */
interface FormChunkGlobals {
  __hubEmbedFormImports?: typeof FormChunkLink;
  __hubEmbedFormHalf?: FormOpenerModule;
}

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
let loaded: FormOpenerModule | undefined;
let scriptUrl: string | undefined;

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
            if (url !== chunkUrl) throw new TypeError(url);
            return url;
          },
        })
        .createScriptURL(chunkUrl)
    : chunkUrl;
  return scriptUrl;
}

/** The form half once it is in, else undefined: for what waits for it in the middle of an event (a key). */
export const formHalf = (): FormOpenerModule | undefined => loaded;

/**
 * The form half, as a classic script beside this one, checked against its integrity value. `low`: fetched
 * behind the page's other requests (the load that hub-ready starts, with no click waiting for it).
 */
export function loadFormOpener(priority?: 'low'): Promise<FormOpenerModule> {
  loading ??= new Promise<FormOpenerModule>((resolve, reject) => {
    // `status`: the file's server answered, and the script still did not load (a 404, a file of another
    // release that fails its integrity): the page's setup, which a Retry cannot mend. No answer is the network's.
    const fail = (cause?: unknown, status?: number) => {
      loading = undefined;
      // Short, as every text of the first file is: the URL says where the file was looked for.
      reject(new HubError(status ? 'config' : 'network', `Form code not loaded: ${chunkUrl}`, { cause, status }));
    };
    const globals = globalThis as FormChunkGlobals;
    // The imports module, as the half takes it. Typed as the module: the type checker fails a name missing
    // here, or one the module does not export. A plain object, not the module's namespace object (`import * as`),
    // which would cost the first file a getter per name (about 80 B gzip). Made here, not as this module
    // runs: base.ts, one of these names, imports this loader (through texts-loader.script.ts), so this
    // module may run before base.ts has made HubElement.
    globals.__hubEmbedFormImports = {
      adoptStyles,
      css,
      define,
      fill,
      html,
      HubElement,
      HubError,
      isText,
      nextTask,
      nothing,
      preconnect,
      shared,
    };
    try {
      const script = document.createElement('script');
      script.src = trustedChunkUrl();
      script.integrity = __HUB_FORM_CHUNK_INTEGRITY__;
      // SRI on a script from another origin (a CDN) needs a CORS fetch: '' is "anonymous", as for the preconnect.
      script.crossOrigin = '';
      if (priority) script.fetchPriority = priority;
      // A classic script's load event comes right after it ran, with no other script run between. One
      // that ran without leaving the form half was not this build's chunk.
      script.onload = () => {
        const half = globals.__hubEmbedFormHalf;
        if (half) resolve((loaded = half));
        else fail();
      };
      // A script's error event says nothing of why: the file asked for again tells an answer from none.
      script.onerror = () => fetch(chunkUrl).then((answer) => fail(undefined, answer.status), fail);
      document.head.append(script);
    } catch (error) {
      fail(error);
    }
  });
  return loading;
}
