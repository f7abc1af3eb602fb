// Registers every element (the side effect of src/define.ts and src/webview.ts), and is the `HubEmbed`
// global of the <script> bundles.
import { HubEmbed } from './hub-embed/hub-embed.js';
import { HubTableCard } from './hub-table-card/hub-table-card.js';
import { HubTableGrid } from './hub-table-grid/hub-table-grid.js';
import { HubTagFilter } from './hub-tag-filter/hub-tag-filter.js';

import { define } from './base.js';

define('hub-tag-filter', HubTagFilter);
define('hub-table-card', HubTableCard);
define('hub-table-grid', HubTableGrid);
define('hub-embed', HubEmbed);

// <hub-form-frame> comes with the form half, which <hub-embed> loads on intent; a page that uses the
// element on its own awaits loadFormOpener() first.
export { loadFormOpener } from './hub-embed/form-opener-loader.js';
export { define, HubEmbed, HubTableCard, HubTableGrid, HubTagFilter };
// The <script> bundle's global `HubEmbed` is this module: the core it already contains is exposed too
// (buildNotificationLink is not, it would add code), and the build's duplicate guard reads `version`.
export { HubError } from '../core/errors.js';
export { TokenSource } from '../core/token-source.js';
export { tokenFromEndpoint } from '../core/endpoint.js';
export { WebClient } from '../core/web-client.js';
export const version: string = __HUB_EMBED_VERSION__;
