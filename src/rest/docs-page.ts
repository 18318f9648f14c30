// The browsable API reference at /docs: rendered from the OpenAPI document itself, with no front-end build.
import { escapeMarkup } from '../domain/markup.ts';
import { html, type Markup, raw } from '../http/html.ts';
import type { openApiDocument } from './openapi.ts';

type Doc = ReturnType<typeof openApiDocument>;

const STYLE = raw(`
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1d2430}
section{border-top:1px solid #d0d5dd;padding:.5rem 0} table{border-collapse:collapse;margin:.5rem 0} td,th{text-align:left;padding:.2rem .75rem .2rem 0;vertical-align:top}
.m{font-family:ui-monospace,monospace;padding:.1rem .4rem;border-radius:4px;color:#fff;background:#475467}.get{background:#1f6f50}.post{background:#1849a9}.put{background:#93370d}.delete{background:#b42318}

`);

/** Whether an operation's `security` needs a token (no empty alternative). */
const needsToken = (security: unknown) => Array.isArray(security) && !security.some((option) => Object.keys(option).length === 0);

/** The scope an operation's `security` names, as the docs page says it. */
const scopeOf = (security: unknown) => {
  const scope = (security as Array<{ oauth2?: string[] }>).find((option) => option.oauth2)?.oauth2?.[0];
  return scope ? ` with the scope \`${scope}\`` : '';
};
/** A browsable reference, rendered from the document itself. */
export function docsPage(doc: Doc): Markup {
  // the document's descriptions mark code with backticks, as Markdown does
  const code = (s: string) => raw(escapeMarkup(s).replace(/`([^`]+)`/g, '<code>$1</code>'));
  const sections = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(
      operations as Record<
        string,
        {
          summary: string;
          security?: unknown;
          parameters?: Array<{ name: string; in: string; description?: string }>;
          responses: Record<string, { description: string }>;
        }
      >,
    ).map(
      ([method, op]) => html`<section><h2><span class="m ${method}">${method.toUpperCase()}</span> <code>${path}</code></h2>
        <p>${code(op.summary)}${needsToken(op.security) && html` <strong>Needs an access token${code(scopeOf(op.security))}.</strong>`}</p>
        ${op.parameters?.length ? html`<table><tr><th>Parameter</th><th>In</th><th>Meaning</th></tr>${op.parameters.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${code(p.description ?? '')}</td></tr>`)}</table>` : null}
        <table><tr><th>Status</th><th>When</th></tr>${Object.entries(op.responses).map(
          ([status, r]) => html`<tr><td>${status}</td><td>${code(r.description)}</td></tr>`,
        )}</table></section>`,
    ),
  );
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title}</title><style>${STYLE}</style></head><body><h1>${doc.info.title}</h1><p>${code(doc.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Authorization: OAuth 2.0 at <code>/oauth/authorize</code> and <code>/oauth/token</code>.</p>
${sections}</body></html>`;
}
