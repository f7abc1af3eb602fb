// Registers every element (the side effect of src/define.ts and src/webview.ts), and is the `HubEmbed`
// global of the <script> bundles.
import { HubEmbed } from './hub-embed/hub-embed.js';
import { HubFormFrame } from './hub-form-frame/hub-form-frame.js';
import { HubTableCard } from './hub-table-card/hub-table-card.js';
import { HubTableGrid } from './hub-table-grid/hub-table-grid.js';
import { HubTagFilter } from './hub-tag-filter/hub-tag-filter.js';

type Versioned = CustomElementConstructor & { version?: string };

let warned = false;

/**
 * Registers `tag` unless it is taken. A page may load the script twice: the same version is skipped
 * silently, another version once with a warning, because two versions cannot share a tag name.
 */
export function define(tag: string, ctor: Versioned): void {
  const existing = customElements.get(tag) as Versioned | undefined;
  if (!existing) return customElements.define(tag, ctor);
  if (existing.version === ctor.version || warned) return;
  warned = true;
  console.warn(`hub-embed ${ctor.version}: <${tag}> already defined by ${existing.version}; kept.`);
}

define('hub-tag-filter', HubTagFilter);
define('hub-table-card', HubTableCard);
define('hub-table-grid', HubTableGrid);
define('hub-form-frame', HubFormFrame);
define('hub-embed', HubEmbed);

export { HubEmbed, HubFormFrame, HubTableCard, HubTableGrid, HubTagFilter };
// The <script> bundle's global `HubEmbed` is this module: the core it already contains is exposed too
// (buildNotificationLink is not, it would add code), and the build's duplicate guard reads `version`.
export { HubError } from '../core/errors.js';
export { TokenSource } from '../core/token-source.js';
export { tokenFromEndpoint } from '../core/endpoint.js';
export { HubClient } from '../core/client.js';
export { buildFormUrl } from '../core/urls.js';
export const version: string = __HUB_EMBED_VERSION__;
