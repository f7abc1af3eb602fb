// Registers every element: the side effect of hub-embed/define, hub-embed/webview and both <script> bundles.
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
