// `hub-embed/define`: the plain registration (src/define-plain.ts), and no exports: each name has one home,
// the element classes `hub-embed`. Besides, the setup error of a tag whose camel-cased properties reached it
// as lowercased attributes (`formurl`), as React renders `<hub-embed formUrl=…>` on the server: only here,
// since apps that render such tags import this entry, and the <script> bundle's first file cannot spare the
// bytes.
import './define-plain.js';
import { useSetupCheck } from './components/hub-embed/connection.js';
import type { HubEmbed } from './components/hub-embed/hub-embed.js';
import { HubError } from './core/errors.js';

// Called when a setting was refused: the values may be there, under their lowercased names.
useSetupCheck((element) => {
  const lowercased: string[] = [];
  const dashed: string[] = [];
  for (const [name, { attribute }] of (element.constructor as typeof HubEmbed).elementProperties) {
    const lower = String(name).toLowerCase();
    // A property with an attribute of its own (`form-url`) that got only its lowercased name instead.
    if (typeof attribute !== 'string' || attribute === lower) continue;
    if (!element.hasAttribute(lower) || element.hasAttribute(attribute)) continue;
    lowercased.push(lower);
    dashed.push(attribute);
  }
  if (lowercased.length)
    throw new HubError(
      'config',
      `${lowercased.join(', ')} arrived as lowercased attributes, as React writes <hub-embed> on the server. ` +
        `Render <HubEmbed> from 'hub-embed/react', or write ${dashed.join(', ')}.`,
    );
});

// Types only, erased from the code: this entry's declarations bring the tags into HTMLElementTagNameMap and
// the hub-* events into GlobalEventHandlersEventMap, so that `import 'hub-embed/define'` alone types
// `querySelector('hub-embed')` and `event.detail` of a `hub-table-select` listener.
export type {} from './components/events.js';
export type {} from './components/hub-embed/hub-embed.js';
export type {} from './components/hub-form-frame/hub-form-frame.js';
export type {} from './components/hub-table-card/hub-table-card.js';
export type {} from './components/hub-table-grid/hub-table-grid.js';
export type {} from './components/hub-tag-filter/hub-tag-filter.js';
