import { HubError } from '../form-half-imports.js';
import type { ReactiveElement } from 'lit';

/**
 * The setup error of a tag whose camel-cased properties reached it as lowercased attributes (`formurl`),
 * as React renders `<hub-embed formUrl=…>` on the server, or undefined when it holds none. It comes with the
 * form half (later-half.ts), which explainError loads once a setting was refused, in every build: an
 * app's first load, and the <script> bundle's first file, do not carry it.
 */
export function lowercasedAttributesError(element: HTMLElement): HubError | undefined {
  const lowercased: string[] = [];
  const dashed: string[] = [];
  for (const [name, { attribute }] of (element.constructor as typeof ReactiveElement).elementProperties) {
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
