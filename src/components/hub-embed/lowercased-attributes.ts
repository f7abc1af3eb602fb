import { HubError } from '../../core/errors.js';
import type { HubEmbed } from './hub-embed.js';

/**
 * The setup error of a tag whose camel-cased properties reached it as lowercased attributes (`formurl`),
 * as React renders `<hub-embed formUrl=…>` on the server, or undefined when it holds none. hub-embed/define
 * loads this module only once a setting was refused (src/define.ts), so that an app's first load does not
 * carry it.
 */
export function lowercasedAttributesError(element: HTMLElement): HubError | undefined {
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
    return new HubError(
      'config',
      `${lowercased.join(', ')} arrived as lowercased attributes, as React writes <hub-embed> on the server. ` +
        `Render <HubEmbed> from 'hub-embed/react', or write ${dashed.join(', ')}.`,
    );
}
