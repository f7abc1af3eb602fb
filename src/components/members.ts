// Generated from custom-elements.json by scripts/bindings.mjs: edit the elements, not this file.

import type { HubEmbed } from './hub-embed/hub-embed.js';
import type { HubFormFrame } from './hub-form-frame/hub-form-frame.js';
import type { HubTableCard } from './hub-table-card/hub-table-card.js';
import type { HubTableGrid } from './hub-table-grid/hub-table-grid.js';
import type { HubTagFilter } from './hub-tag-filter/hub-tag-filter.js';

/**
 * What the framework bindings type for each tag: the element class, its public properties, the attributes
 * whose name differs from their property (`token-endpoint`; JSX and templates copy them from HTML), all its
 * attributes, and its events.
 */
export interface HubElementMembers {
  'hub-embed': {
    element: HubEmbed;
    properties:
      | 'openFormHook'
      | 'tokenEndpoint'
      | 'baseUrl'
      | 'formUrl'
      | 'tags'
      | 'limit'
      | 'matchesOnly'
      | 'theme'
      | 'openMode'
      | 'tokenProvider'
      | 'bridge'
      | 'bridgeOrigins'
      | 'locale'
      | 'strings';
    renamedAttributes: 'token-endpoint' | 'base-url' | 'form-url' | 'matches-only' | 'open-mode' | 'bridge-origins';
    attributes:
      | 'token-endpoint'
      | 'base-url'
      | 'form-url'
      | 'tags'
      | 'limit'
      | 'matches-only'
      | 'theme'
      | 'open-mode'
      | 'bridge'
      | 'bridge-origins'
      | 'locale';
    events:
      | 'hub-ready'
      | 'hub-tags-change'
      | 'hub-table-select'
      | 'hub-form-open'
      | 'hub-form-close'
      | 'hub-form-message'
      | 'hub-error';
  };
  'hub-form-frame': {
    element: HubFormFrame;
    properties:
      | 'src'
      | 'shortCode'
      | 'tableName'
      | 'sandbox'
      | 'referrerPolicy'
      | 'allow'
      | 'timeout'
      | 'held'
      | 'locale'
      | 'strings';
    renamedAttributes: 'short-code' | 'table-name' | 'referrerpolicy';
    attributes: 'short-code' | 'table-name' | 'sandbox' | 'referrerpolicy' | 'allow' | 'timeout' | 'locale';
    events: 'hub-form-message' | 'hub-form-close' | 'hub-error';
  };
  'hub-table-card': {
    element: HubTableCard;
    properties: 'table' | 'busy' | 'locale' | 'strings';
    renamedAttributes: never;
    attributes: 'busy' | 'locale';
    events: 'hub-table-select';
  };
  'hub-table-grid': {
    element: HubTableGrid;
    properties: 'tables' | 'loading' | 'tags' | 'opening' | 'matchesOnly' | 'locale' | 'strings';
    renamedAttributes: 'matches-only';
    attributes: 'loading' | 'matches-only' | 'locale';
    events: 'hub-table-select' | 'hub-tags-change';
  };
  'hub-tag-filter': {
    element: HubTagFilter;
    properties: 'offered' | 'tags' | 'locale' | 'strings';
    renamedAttributes: never;
    attributes: 'locale';
    events: 'hub-tags-change';
  };
}
