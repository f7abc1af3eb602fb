// `hub-embed/define`: the plain registration (src/define-plain.ts), and no exports: each name has one home,
// the element classes `hub-embed`. Besides, the setup error of a tag whose camel-cased properties reached it
// as lowercased attributes (`formurl`), as React renders `<hub-embed formUrl=…>` on the server: only here,
// since apps that render such tags import this entry, and the <script> bundle's first file cannot spare the
// bytes; a module of its own, loaded when a setting is refused, so that an app's first load does not either.
import './define-plain.js';
import { useSetupCheck } from './components/hub-embed/connection.js';

// Asked only once a setting was refused, so loaded then: the values may be there, under their lowercased
// names. A module that cannot load (the network gone) says nothing, and the refusal's own error stands.
useSetupCheck((element) =>
  import('./components/hub-embed/lowercased-attributes.js').then(
    (check) => check.lowercasedAttributesError(element),
    () => undefined,
  ),
);

// Types only, erased from the code: this entry's declarations bring the tags into HTMLElementTagNameMap and
// the hub-* events into GlobalEventHandlersEventMap, so that `import 'hub-embed/define'` alone types
// `querySelector('hub-embed')` and `event.detail` of a `hub-table-select` listener.
export type {} from './components/events.js';
export type {} from './components/hub-embed/hub-embed.js';
export type {} from './components/hub-form-frame/hub-form-frame.js';
export type {} from './components/hub-table-card/hub-table-card.js';
export type {} from './components/hub-table-grid/hub-table-grid.js';
export type {} from './components/hub-tag-filter/hub-tag-filter.js';
