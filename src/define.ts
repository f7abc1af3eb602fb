// `hub-embed/define`: the plain registration (src/define-plain.ts), and no exports: each name has one home,
// the element classes `hub-embed`.
import './define-plain.js';

// Types only, erased from the code: this entry's declarations bring the tags into HTMLElementTagNameMap and
// the hub-* events into GlobalEventHandlersEventMap, so that `import 'hub-embed/define'` alone types
// `querySelector('hub-embed')` and `event.detail` of a `hub-table-select` listener.
export type {} from './components/events.js';
export type {} from './components/hub-embed/hub-embed.js';
export type {} from './components/hub-form-frame/hub-form-frame.js';
export type {} from './components/hub-table-card/hub-table-card.js';
export type {} from './components/hub-table-grid/hub-table-grid.js';
export type {} from './components/hub-tag-filter/hub-tag-filter.js';
