// Entry of dist/hub-embed.iife.js, the plain <script> bundle: registers every element and puts the
// `HubEmbed` global (src/script-global.ts) on the page.
import './define.js';

export * from './script-global.js';
