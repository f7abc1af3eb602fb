/** Replaced at build and test time by vite.config.ts `define` (vitest.config.ts takes the same) with package.json's version. */
declare const __HUB_EMBED_VERSION__: string;
/**
 * Whether the bundle can have the WebView bridge: false only in the plain <script> bundle (vite.config.ts), which
 * then leaves out what only the bridge needs (the no-host texts, what <hub-embed> tells a host).
 */
declare const __HUB_EMBED_WITH_BRIDGE__: boolean;
