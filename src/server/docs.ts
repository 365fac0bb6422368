import { z } from '@hono/zod-openapi';
import { endpoint, newSubApp, type OpenApiDocument } from './openapi.js';

/**
 * The API documentation, rendered on the server from the OpenAPI document: plain HTML and one
 * stylesheet of our own, no script and no CDN, so it works offline and under the strict CSP.
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const STYLESHEET_PATH = '/docs/docs.css';

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Escaped text with `code` spans, the only markup the descriptions use. */
const prose = (s: string | undefined) => (s ? escape(s).replace(/`([^`]+)`/g, '<code>$1</code>') : '');
const anchor = (method: string, path: string) =>
  `op-${method}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`;

/** A schema as indented JSON, with references turned into links to the schema section. */
function schemaBlock(schema: unknown): string {
  const json = escape(JSON.stringify(schema, null, 2));
  return `<pre>${json.replace(/&quot;#\/components\/schemas\/(\w+)&quot;/g, '<a href="#schema-$1">$1</a>')}</pre>`;
}

function contentBlocks(content: Record<string, { schema?: unknown }> | undefined): string {
  if (!content) return '';
  return Object.entries(content)
    .map(
      ([type, { schema }]) =>
        `<details><summary><code>${escape(type)}</code></summary>${schema === undefined ? '' : schemaBlock(schema)}</details>`,
    )
    .join('');
}

function operationHtml(method: string, path: string, op: Operation): string {
  const params = op.parameters?.length
    ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th></th></tr>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${escape(p.name)}</code>${p.required ? ' *' : ''}</td><td>${escape(p.in)}</td><td><code>${escape(JSON.stringify(p.schema ?? {}))}</code></td><td>${prose(p.description)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const body = op.requestBody ? `<h4>Request body</h4>${contentBlocks(op.requestBody.content)}` : '';
  const responses = Object.entries(op.responses ?? {})
    .map(
      ([status, r]) =>
        `<tr><td class="status s${status[0]}">${escape(status)}</td><td>${prose(r.description)}${contentBlocks(r.content)}</td></tr>`,
    )
    .join('');
  return `<section class="op" id="${anchor(method, path)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p class="summary">${prose(op.summary)}</p>${op.description ? `<p>${prose(op.description)}</p>` : ''}
${params}${body}<h4>Responses</h4><table>${responses}</table></section>`;
}

/** The whole page. Every route of the document appears twice: in the index and in its section. */
export function renderDocs(doc: OpenApiDocument): string {
  const byTag = new Map<string, Array<{ method: string; path: string; op: Operation }>>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const index = [...byTag]
    .map(
      ([tag, ops]) =>
        `<h3>${escape(tag)}</h3><ul>${ops
          .map(
            ({ method, path, op }) =>
              `<li><a href="#${anchor(method, path)}"><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></a> ${prose(op.summary)}</li>`,
          )
          .join('')}</ul>`,
    )
    .join('');
  const sections = [...byTag]
    .map(
      ([tag, ops]) =>
        `<h2>${escape(tag)}</h2>${ops.map(({ method, path, op }) => operationHtml(method, path, op)).join('\n')}`,
    )
    .join('\n');
  const schemas = Object.entries(doc.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3>${schemaBlock(schema)}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)}</title><link rel="stylesheet" href="${STYLESHEET_PATH}"></head>
<body><header><h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1>
<p>${prose(doc.info.description)}</p><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escape(doc.openapi)}).</p></header>
<nav><h2>Routes</h2>${index}</nav>
<main>${sections}<h2>Schemas</h2>${schemas}</main></body></html>
`;
}

const STYLESHEET = `:root{color-scheme:light dark;--fg:#1d1d1f;--bg:#fff;--muted:#6e6e73;--line:#d2d2d7;--code:#f5f5f7}
@media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--bg:#1d1d1f;--muted:#a1a1a6;--line:#424245;--code:#2c2c2e}}
body{font:15px/1.5 system-ui,-apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;color:var(--fg);background:var(--bg);max-width:960px;margin:0 auto;padding:1rem 1.5rem 4rem}
h1 small{color:var(--muted);font-weight:400;font-size:.6em}h2{border-bottom:1px solid var(--line);padding-bottom:.3rem;margin-top:2.5rem;text-transform:capitalize}
nav ul{list-style:none;padding:0}nav li{margin:.2rem 0}a{color:inherit}code,pre{font:13px/1.45 ui-monospace,Menlo,Consolas,monospace}
pre{background:var(--code);padding:.75rem;border-radius:6px;overflow:auto}.op{border:1px solid var(--line);border-radius:8px;padding:.25rem 1rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4.2em;text-align:center;border-radius:4px;color:#fff;font:600 12px/1.8 ui-monospace,monospace}
.get{background:#0a7d45}.post{background:#0060df}.put{background:#8f5b00}.patch{background:#6a3fc1}.delete{background:#c4262e}
table{border-collapse:collapse;width:100%}td,th{border-top:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
.status{font-weight:600;width:4em}.s2{color:#0a7d45}.s4{color:#b35c00}.s5{color:#c4262e}.summary{font-weight:600}summary{cursor:pointer}
`;

/** GET /openapi.json, GET /docs and its stylesheet. The document is built on first use, once every route is mounted. */
export function docsRoutes(document: () => OpenApiDocument) {
  const api = newSubApp();
  let json: string | undefined;
  let html: string | undefined;
  endpoint(
    api,
    {
      method: 'get',
      path: '/openapi.json',
      tag: 'docs',
      summary: 'This API as an OpenAPI 3.1 document',
      responses: { 200: { description: 'The document.', schema: z.record(z.string(), z.unknown()) } },
    },
    (c) => c.body((json ??= JSON.stringify(document())), 200, { 'content-type': 'application/json; charset=utf-8' }),
  );
  endpoint(
    api,
    {
      method: 'get',
      path: '/docs',
      tag: 'docs',
      summary: 'This documentation, as a page',
      responses: { 200: { description: 'An HTML page.' } },
    },
    (c) => c.html((html ??= renderDocs(document()))),
  );
  api.get(STYLESHEET_PATH, (c) => c.body(STYLESHEET, 200, { 'content-type': 'text/css; charset=utf-8' }));
  return api;
}
