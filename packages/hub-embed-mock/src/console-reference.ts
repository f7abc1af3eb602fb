/**
 * The console's API reference at {api}/console/reference: openapi.json rendered to one static HTML page
 * (endpoints, webhooks, schemas), beside the file itself at /console/openapi.json. Written here rather than
 * taken from Redoc or Scalar: their standalone bundles are about 1 MB of script each and style the page
 * with inline styles, which the console's CSP (style-src 'self') refuses; this page has no script at all,
 * and its text is escaped as it is written, like the form page's.
 */
import openapi from '../../../openapi.json' with { type: 'json' };

interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  description?: string;
  'x-unit'?: string;
  'x-simulator'?: Schema;
}
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}
interface Response {
  $ref?: string;
  description: string;
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
  'x-simulator-statuses'?: number[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The file's Markdown as far as it uses it: paragraphs, `code` and **strong**; everything else is text. */
function prose(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n\s*\n/)
    .map(
      (paragraph) =>
        `<p>${escape(paragraph)
          .replace(/`([^`]+)`/g, '<code>$1</code>')
          .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')}</p>`,
    )
    .join('');
}

function lookUp(reference: string): unknown {
  let node: unknown = openapi;
  for (const part of reference.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
  return node;
}
const resolved = <T extends { $ref?: string }>(node: T): T => (node.$ref ? resolved(lookUp(node.$ref) as T) : node);
const schemaName = (reference: string) => reference.split('/').pop()!;

/** A schema's type, short: a link for a named schema, `T[]`, `a | b`, or the constant. */
function typeOf(schema: Schema): string {
  if (schema.$ref) {
    const name = schemaName(schema.$ref);
    return `<a href="#schema-${escape(name)}">${escape(name)}</a>`;
  }
  if (schema.allOf) return schema.allOf.map(typeOf).join(' + ') + (schema.properties ? ' + {…}' : '');
  if (schema.const !== undefined) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['any'];
  return types
    .map((type) => (type === 'array' && schema.items ? `${typeOf(schema.items)}[]` : escape(type)))
    .join(' | ');
}

/** What a field's schema adds beside its type: format, bounds, default, allowed values, unit. */
function facts(schema: Schema): string {
  const list: string[] = [];
  if (schema.format) list.push(`format ${schema.format}`);
  if (schema.pattern) list.push(`pattern <code>${escape(schema.pattern)}</code>`);
  if (schema.minimum !== undefined) list.push(`minimum ${schema.minimum}`);
  if (schema.maximum !== undefined) list.push(`maximum ${schema.maximum}`);
  if (schema.default !== undefined) list.push(`default <code>${escape(JSON.stringify(schema.default))}</code>`);
  if (schema.enum)
    list.push(`one of ${schema.enum.map((value) => `<code>${escape(String(value))}</code>`).join(', ')}`);
  if (schema['x-unit']) list.push(`unit: ${escape(schema['x-unit'])}`);
  return list.join('; ');
}

function simulatorNote(schema: Schema): string {
  const choice = schema['x-simulator'];
  if (!choice) return '';
  const narrowing = facts(choice);
  return `<p class="simulator">Simulator: ${[narrowing, prose(choice.description).replace(/<\/?p>/g, '')].filter(Boolean).join('. ')}</p>`;
}

function fieldRows(schema: Schema): string {
  const own = resolved(schema);
  // The schema's own fields after those of its allOf parts, so that a field it narrows shows once, as narrowed.
  const parts = [...(own.allOf ?? []).map(resolved), own];
  const fields = new Map(parts.flatMap((part) => Object.entries(part.properties ?? {})));
  return [...fields]
    .map(([name, property]) => {
      const required = parts.some((part) => part.required?.includes(name));
      const described = property.$ref ? resolved(property) : property;
      return `<tr><td><code>${escape(name)}</code>${required ? ' <span class="required">required</span>' : ''}</td><td>${typeOf(property)}</td><td>${prose(described.description)}${facts(property) ? `<p>${facts(property)}</p>` : ''}${simulatorNote(described)}</td></tr>`;
    })
    .join('');
}

const table = (head: string[], rows: string) =>
  rows
    ? `<table><thead><tr>${head.map((cell) => `<th>${cell}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`
    : '';

function body(content: Record<string, { schema: Schema }> | undefined): string {
  const json = content?.['application/json'];
  if (!json) return '';
  return `<p>JSON: ${typeOf(json.schema)}</p>${table(['Field', 'Type', 'Description'], json.schema.$ref ? '' : fieldRows(json.schema))}`;
}

function operation(id: string, title: string, op: Operation): string {
  const parameters = (op.parameters ?? []).map(resolved);
  const security = (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const rows = parameters
    .map(
      (param) =>
        `<tr><td><code>${escape(param.name)}</code> (${escape(param.in)})${param.required ? ' <span class="required">required</span>' : ''}</td><td>${typeOf(param.schema)}</td><td>${prose(param.description)}${facts(param.schema) ? `<p>${facts(param.schema)}</p>` : ''}${simulatorNote(param.schema)}</td></tr>`,
    )
    .join('');
  const responses = Object.entries(op.responses)
    .map(([status, response]) => {
      const answer = resolved(response);
      return `<tr><td>${escape(status)}</td><td>${prose(answer.description)}${body(answer.content)}</td></tr>`;
    })
    .join('');
  return `<section id="${escape(id)}" class="operation">
<h3><code>${escape(title)}</code></h3>
${op.summary ? `<p class="summary">${escape(op.summary)}</p>` : ''}${prose(op.description)}
<p>Authentication: ${security.length > 0 ? security.map((scheme) => `<a href="#auth-${escape(scheme)}">${escape(scheme)}</a>`).join(', ') : 'none (the source IP)'}</p>
${table(['Parameter', 'Type', 'Description'], rows)}
${op.requestBody ? `<h4>Request body</h4>${body(op.requestBody.content)}` : ''}
<h4>Answers</h4>${table(['Status', 'Description'], responses)}
${op['x-simulator-statuses'] ? `<p class="simulator">Simulator: answers ${op['x-simulator-statuses'].join(', ')}.</p>` : ''}
</section>`;
}

function render(): string {
  const doc = openapi as unknown as {
    info: { title: string; version: string; summary?: string; description?: string };
    servers: { url: string; description?: string }[];
    paths: Record<string, Record<string, Operation>>;
    webhooks: Record<string, { post: Operation }>;
    components: {
      securitySchemes: Record<string, { type: string; name?: string; scheme?: string; description?: string }>;
      schemas: Record<string, Schema>;
    };
  };
  const endpoints = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      id: `${method}-${path}`,
      title: `${method.toUpperCase()} ${path}`,
      op,
    })),
  );
  const webhooks = Object.entries(doc.webhooks).map(([event, item]) => ({
    id: `webhook-${event}`,
    title: `POST ${event}`,
    op: item.post,
  }));
  const toc = (items: { id: string; title: string }[]) =>
    `<ul>${items.map((item) => `<li><a href="#${escape(item.id)}">${escape(item.title)}</a></li>`).join('')}</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escape(doc.info.title)} ${escape(doc.info.version)} · API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/reference.css">
</head>
<body>
<header>
<p><a href="/console/">Simulator console</a> · <a href="/console/openapi.json" download>openapi.json</a></p>
<h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1>
${doc.info.summary ? `<p class="summary">${escape(doc.info.summary)}</p>` : ''}${prose(doc.info.description)}
</header>
<nav aria-label="Contents"><h2>Contents</h2><h3>Endpoints</h3>${toc(endpoints)}<h3>Webhooks</h3>${toc(webhooks)}<h3>Schemas</h3>${toc(Object.keys(doc.components.schemas).map((name) => ({ id: `schema-${name}`, title: name })))}</nav>
<main>
<h2>Servers</h2>
<ul>${doc.servers.map((server) => `<li><code>${escape(server.url)}</code>: ${prose(server.description).replace(/<\/?p>/g, '')}</li>`).join('')}</ul>
<h2>Authentication</h2>
${Object.entries(doc.components.securitySchemes)
  .map(
    ([name, scheme]) =>
      `<section id="auth-${escape(name)}"><h3>${escape(name)}: ${escape(scheme.type === 'apiKey' ? `header ${scheme.name ?? ''}` : `HTTP ${scheme.scheme ?? ''}`)}</h3>${prose(scheme.description)}</section>`,
  )
  .join('')}
<h2>Endpoints</h2>
${endpoints.map((entry) => operation(entry.id, entry.title, entry.op)).join('\n')}
<h2>Webhooks</h2>
<p>Calls the service makes to the developer's receiver.</p>
${webhooks.map((entry) => operation(entry.id, entry.title, entry.op)).join('\n')}
<h2>Schemas</h2>
${Object.entries(doc.components.schemas)
  .map(
    ([name, schema]) =>
      `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3><p>${typeOf({ ...schema, $ref: undefined, properties: undefined })}${facts(schema) ? `; ${facts(schema)}` : ''}</p>${prose(schema.description)}${simulatorNote(schema)}${table(['Field', 'Type', 'Description'], fieldRows(schema))}</section>`,
  )
  .join('\n')}
</main>
</body>
</html>
`;
}

export const REFERENCE_CSS = `body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; font: 15px/1.5 system-ui, sans-serif; }
@media (min-width: 64rem) { body { display: grid; grid-template-columns: 16rem 1fr; gap: 2rem; } header { grid-column: 1 / -1; } nav { position: sticky; top: 0; max-height: 100vh; overflow: auto; } }
nav ul { padding-left: 1rem; overflow-wrap: anywhere; } nav h3 { font-size: 0.95rem; margin-bottom: 0; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; } th, td { border: 1px solid color-mix(in srgb, CanvasText 25%, Canvas); padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
td p { margin: 0 0 0.3rem; } code { font-size: 0.92em; } .operation { border-top: 1px solid color-mix(in srgb, CanvasText 25%, Canvas); margin-top: 1.5rem; }
.required { font-size: 0.8em; color: #b3261e; } .simulator { font-size: 0.9em; border-left: 3px solid #7a5cff; padding-left: 0.5rem; }
@media (prefers-color-scheme: dark) { .required { color: #ff8a80; } }
.summary { font-weight: 600; }
`;

let page: string | undefined;

/** The page, rendered once per process. */
export function referencePage(): string {
  page ??= render();
  return page;
}

/** openapi.json as shipped, for the page's download link. */
export const OPENAPI_TEXT = `${JSON.stringify(openapi, null, 2)}\n`;
