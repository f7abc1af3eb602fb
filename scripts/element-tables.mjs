// Renders docs/elements.md's element reference from custom-elements.json, so the tables and the JSDoc they
// come from cannot drift apart. Used by scripts/manifest.mjs (write, or --check).
const START = '<!-- elements:start (generated from custom-elements.json by scripts/manifest.mjs) -->';
const END = '<!-- elements:end -->';

const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

function table(head, rows) {
  if (rows.length === 0) return '';
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
}

export function renderElements(manifest) {
  const out = [START, ''];
  const elements = manifest.modules.flatMap((module) => (module.declarations ?? []).filter((d) => d.tagName));
  for (const element of elements) {
    out.push(`### \`<${element.tagName}>\``, '', cell(element.summary ?? element.description), '');
    const isPublic = (m) => m.privacy !== 'private' && m.privacy !== 'protected' && !m.name.startsWith('#');
    const fields = (element.members ?? []).filter(
      (m) =>
        m.kind === 'field' &&
        !m.static &&
        isPublic(m) &&
        m.name !== 'version' &&
        !(m.attribute === undefined && m.type?.text === undefined && !m.description),
    );
    out.push(
      table(
        ['Property', 'Attribute', 'Type', 'Default', 'Description'],
        fields.map((f) => [
          `\`${f.name}\``,
          f.attribute ? `\`${f.attribute}\`` : '—',
          f.type?.text ? `\`${f.type.text}\`` : '',
          f.default ? `\`${f.default}\`` : '',
          f.description,
        ]),
      ),
    );
    const methods = (element.members ?? []).filter(
      (m) =>
        m.kind === 'method' &&
        !m.static &&
        isPublic(m) &&
        !['render', 'connectedCallback', 'disconnectedCallback', 'updated', 'willUpdate', 'firstUpdated'].includes(
          m.name,
        ),
    );
    out.push(
      table(
        ['Method', 'Description'],
        methods.map((m) => [`\`${m.name}(${(m.parameters ?? []).map((p) => p.name).join(', ')})\``, m.description]),
      ),
    );
    out.push(
      table(
        ['Event', 'Detail and meaning'],
        (element.events ?? []).map((e) => [`\`${e.name}\``, e.description]),
      ),
    );
    out.push(
      table(
        ['Part', 'Description'],
        (element.cssParts ?? []).map((p) => [`\`${p.name}\``, p.description]),
      ),
    );
    out.push(
      table(
        ['CSS property', 'Description'],
        (element.cssProperties ?? []).map((p) => [`\`${p.name}\``, p.description]),
      ),
    );
  }
  out.push(END);
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

export function withElements(markdown, manifest) {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`docs/elements.md needs the markers ${START} ... ${END}`);
  return markdown.slice(0, start) + renderElements(manifest) + markdown.slice(end + END.length);
}
