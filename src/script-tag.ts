// Entry of dist/hub-embed.iife.js, the plain <script> bundle: registers every element (as hub-embed/define
// does, without its check for a server-rendered React tag's lowercased attributes) and puts the
// `HubEmbed` global (src/script-global.ts) on the page.
import './define-plain.js';

export * from './script-global.js';
