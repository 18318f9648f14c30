// GraphiQL served by Milepost itself: yoga's own GraphiQL build (@graphql-yoga/render-graphiql), with
// no script from a CDN, so it works on a machine without internet and under a strict Content Security
// Policy. Yoga's renderer inlines 9 MB of scripts in every page; here the page only names them, and
// each is served once per version under /graphiql/ with a year of caching: the application, its
// stylesheet, Monaco's three workers (same-origin files, not blob: URLs), and the few lines that
// start it with the page's options (read from a JSON block, never from an inline script).
import { createHash } from 'node:crypto';
import { Response } from '@whatwg-node/fetch';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';

export const GRAPHIQL_ASSET_PATH = '/graphiql';

interface Asset {
  type: string;
  body: string;
}

let loading: Promise<{ assets: Map<string, Asset>; version: string }> | null = null;

/** The assets, read once, on the first page or asset asked for (the bundle is 9 MB: not at start-up). */
function assets(): Promise<{ assets: Map<string, Asset>; version: string }> {
  loading ??= import('@graphql-yoga/render-graphiql/graphiql').then((bundle) => {
    const script = 'text/javascript; charset=utf-8';
    const environment = `self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: function (_id, label) { return ${JSON.stringify(GRAPHIQL_ASSET_PATH)} + '/' + label + '.worker.js'; } };`;
    const start =
      "YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), JSON.parse(document.getElementById('graphiql-options').textContent));";
    const assets = new Map<string, Asset>([
      ['environment.js', { type: script, body: environment }],
      ['app.js', { type: script, body: bundle.js }],
      ['app.css', { type: 'text/css; charset=utf-8', body: bundle.css }],
      ['start.js', { type: script, body: start }],
      ['editorWorkerService.worker.js', { type: script, body: bundle.editorWorkerService }],
      ['json.worker.js', { type: script, body: bundle.jsonWorker }],
      ['graphql.worker.js', { type: script, body: bundle.graphqlWorker }],
    ]);
    const version = createHash('sha256').update(bundle.js).update(bundle.css).digest('hex').slice(0, 12);
    return { assets, version };
  });
  return loading;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The GraphiQL page for yoga's `renderGraphiQL`: scripts by name only, options as data. */
export async function renderGraphiQLPage(options: GraphiQLOptions): Promise<string> {
  const { version } = await assets();
  const asset = (name: string) => `${GRAPHIQL_ASSET_PATH}/${name}?v=${version}`;
  // `<` escaped: the options hold the default query, which must not end the block
  const data = JSON.stringify(options ?? {}).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options?.title ?? 'GraphiQL')}</title>
<link rel="stylesheet" href="${asset('app.css')}">
</head>
<body class="no-focus-outline">
<noscript>GraphiQL needs JavaScript. The schema is also printed at /schema.graphql in the repository.</noscript>
<div id="root" style="height: 100vh"></div>
<script type="application/json" id="graphiql-options">${data}</script>
<script src="${asset('environment.js')}"></script>
<script src="${asset('app.js')}"></script>
<script src="${asset('start.js')}"></script>
</body>
</html>`;
}

/** One of the assets, with a year of caching (its URL names its version); null for any other name. */
export async function graphiqlAsset(name: string): Promise<Response | null> {
  const asset = (await assets()).assets.get(name);
  if (!asset) return null;
  return new Response(asset.body, {
    status: 200,
    headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' },
  });
}

/**
 * The page's Content-Security-Policy: scripts, workers and requests from Milepost only. Styles may be
 * inline (the editor sets its own), images and fonts may be data: URLs (the bundle's icons).
 */
export const GRAPHIQL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Puts the policy on the GraphiQL page yoga answers (an HTML answer of /graphql is that page). */
export function useGraphiQLPolicy(): Plugin {
  return {
    onResponse({ response }) {
      if (/^text\/html\b/.test(response.headers.get('content-type') ?? '')) {
        response.headers.set('content-security-policy', GRAPHIQL_CSP);
        response.headers.set('x-content-type-options', 'nosniff');
      }
    },
  };
}
