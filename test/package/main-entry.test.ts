// `hub-embed` (`.`) is the elements, the types of their public members and the event map, nothing else
// (issue 83 item 4): what extends or wires the elements is hub-embed/plumbing's. Read from the API report the
// fast gate keeps equal to the declarations (api/index.api.md), so it holds for types as for values.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Each name of a report with its kind and its declaration's text. */
function reported(file: string): { name: string; kind: string; text: string }[] {
  const body = readFileSync(file, 'utf8').split('```ts\n')[1]!.split('\n```')[0]!;
  return [
    ...body.matchAll(/^\/\/ (\S+) \((value|type)\)\n([\s\S]*?)(?=^\/\/ \S+ \((?:value|type)\)$|(?![\s\S]))/gm),
  ].map(([, name, kind, text]) => ({ name: name!, kind: kind!, text: text! }));
}

describe("hub-embed's main entry", () => {
  const names = reported('api/index.api.md');
  const elements = names.filter(({ kind, text }) => kind === 'value' && /^class \w+ extends HubElement\b/.test(text));
  // The members a user of an element reads or sets: the element classes', and their base's (in plumbing).
  const base = reported('api/plumbing.api.md').find(({ name }) => name === 'HubElement')!;

  it('exports no value but the element classes', () => {
    expect(elements.map(({ name }) => name).sort()).toEqual([
      'HubEmbed',
      'HubFormFrame',
      'HubTableCard',
      'HubTableGrid',
      'HubTagFilter',
    ]);
    expect(names.filter(({ kind }) => kind === 'value')).toEqual(elements);
  });

  it('exports no type but the event map and the types of the elements’ members', () => {
    const signatures = [...elements, base].map(({ text }) => text).join('\n');
    const stray = names
      .filter(({ kind }) => kind === 'type')
      .filter(({ name }) => !name.startsWith('HubEvent') && !new RegExp(`\\b${name}\\b`).test(signatures));
    expect(stray.map(({ name }) => name)).toEqual([]);
    expect(names.map(({ name }) => name)).toEqual(expect.arrayContaining(['HubEventMap', 'HubEventDetails']));
  });
});
