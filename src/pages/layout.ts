// The frame every page shares (the people-facing pages and the account and OAuth pages): the head, the
// style, and a header that shows who is logged in, with a log-out button.
import type { FieldIssue } from '../domain/errors.ts';
import { html, type Markup, raw } from '../http/html.ts';

export interface PageViewer {
  id: number;
  username: string;
  displayName: string;
  /** Unread notifications, for the bell (the people pages read it; the account pages leave it out). */
  unread?: number;
}

const STYLE = raw(`
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1d2430; background: #f5f6f8; }
  header { background: #1f6f50; color: #fff; padding: .6rem 1rem; display: flex; gap: .75rem; align-items: center; position: relative; }
  header a, header button, header summary { color: #fff; white-space: nowrap; }
  header .brand { font-weight: 700; text-decoration: none; margin-right: auto; }
  header nav { display: flex; gap: .75rem; align-items: center; font-size: .95rem; }
  header .me { display: inline-block; overflow: hidden; text-overflow: ellipsis; max-width: 12rem; vertical-align: middle; }
  header form.find { display: flex; gap: .35rem; margin: 0; }
  header form.find input { width: 14rem; padding: .3rem .5rem; font: inherit; border: 1px solid #fff; border-radius: 4px; }
  header form.find button { margin: 0; padding: .3rem .7rem; }
  header details.menu { display: none; }
  header details.menu summary { cursor: pointer; list-style: none; border: 1px solid #fff; border-radius: 4px; padding: .2rem .6rem; }
  header details.menu summary::-webkit-details-marker { display: none; }
  header details.menu nav { position: absolute; right: .5rem; top: 100%; z-index: 1000; flex-direction: column; align-items: stretch; background: #1f6f50; padding: .75rem 1rem; border-radius: 0 0 6px 6px; box-shadow: 0 4px 8px rgba(0,0,0,.25); }
  header details.menu nav a { padding: .35rem 0; }
  @media (max-width: 56rem) {
    header { flex-wrap: wrap; }
    header form.find { order: 9; flex-basis: 100%; }
    header form.find input { flex: 1; width: auto; min-width: 0; }
  }
  @media (max-width: 40rem) {
    header { padding: .5rem .75rem; gap: .6rem; }
    header nav.full { display: none; }
    header details.menu { display: block; }
    header .me { max-width: 7rem; }
  }
  main { max-width: 36rem; margin: 1.5rem auto; padding: 0 1rem; }
  .card { background: #fff; border-radius: 8px; padding: 1.25rem; box-shadow: 0 1px 3px rgba(0,0,0,.12); margin-bottom: 1rem; }
  fieldset { min-width: 0; max-width: 100%; box-sizing: border-box; margin: .75rem 0 0; padding: .5rem .75rem .75rem; border: 1px solid #c5ccd6; border-radius: 4px; }
  label { display: block; margin-top: .75rem; font-weight: 600; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  input[type=text], input[type=password], input[type=url], input[type=search], textarea { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #8a94a6; border-radius: 4px; }
  button { font: inherit; padding: .5rem 1rem; border-radius: 4px; border: 1px solid #1f6f50; background: #1f6f50; color: #fff; cursor: pointer; margin-top: 1rem; }
  button.secondary { background: #fff; color: #1f6f50; }
  button.danger { background: #b3261e; border-color: #b3261e; color: #fff; }
  header form button { margin: 0; background: transparent; border-color: #fff; }
  header .bell { text-decoration: none; display: inline-flex; align-items: center; }
  header .bell .count { display: inline-block; margin-left: .15rem; padding: 0 .35rem; border-radius: 1rem; background: #fff; color: #8c1d18; font-size: .8rem; font-weight: 700; }
  .error { background: #fdecea; border: 1px solid #b3261e; color: #8c1d18; padding: .5rem .75rem; border-radius: 4px; }
  .help { color: #4a5568; font-size: .9rem; margin: .25rem 0 0; }
  .secret { font-family: ui-monospace, monospace; word-break: break-all; background: #f0f3f0; padding: .25rem .5rem; }
  .actions { display: flex; gap: .5rem; flex-wrap: wrap; }
  .scroll { overflow-x: auto; max-width: 100%; }
  table { width: 100%; border-collapse: collapse; } td, th { text-align: left; padding: .25rem .5rem .25rem 0; vertical-align: top; }
`);

/**
 * A whole page: `style` adds to the shared style sheet, `head` to the document's head; `search` puts the
 * search box in the header (the people pages; the log-in, account and consent pages keep to their task).
 */
export function layout(
  title: string,
  body: Markup,
  viewer: PageViewer | null,
  csrf: string,
  style?: Markup,
  head?: Markup,
  options: { search?: boolean } = {},
): Markup {
  const nav = viewer
    ? viewerNav(viewer, csrf)
    : html`<nav aria-label="Account"><a href="/login">Log in</a> <a href="/signup">Sign up</a></nav>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Milepost</title><style>${STYLE}${style}</style>${head}</head>
<body><header><a class="brand" href="/">Milepost</a>${options.search && headerSearch}${nav}</header>
<main><h1>${title}</h1>${body}</main></body></html>`;
}

/** The search box every page's header holds (its own line on a narrow screen). */
const headerSearch = html`<form method="get" action="/search" class="find" role="search" aria-label="Search the site"><label class="visually-hidden" for="search-q">Search people and entries</label><input type="search" id="search-q" name="q" maxlength="200" autocomplete="off" placeholder="Search people and entries"><button type="submit" class="secondary">Search</button></form>`;

/** The bell, drawn (an emoji is an empty box without an emoji font), with the count of unread notifications. */
function bell(unread: number | undefined): Markup {
  const label = unread ? `Notifications: ${unread} unread` : 'Notifications';
  return html`<a href="/notifications" class="bell" aria-label="${label}" title="${label}"><svg class="bell-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"/></svg>${unread ? html`<span class="count">${unread > 99 ? '99+' : unread}</span>` : null}</a>`;
}

/**
 * What a logged-in athlete's header holds: the bell and their name always; the other links in a row on
 * a wide screen, and behind a Menu button on a phone (a disclosure that works without script).
 */
function viewerNav(viewer: PageViewer, csrf: string): Markup {
  const links = html`<a href="/settings">Settings</a> <a href="/account">Account</a> <a href="/developers/apps">Developers</a>
       <form method="post" action="/logout"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Log out</button></form>`;
  return html`${bell(viewer.unread)}<a class="me" href="/people/${encodeURIComponent(viewer.username)}">${viewer.displayName}</a>
<nav class="full" aria-label="Account">${links}</nav>
<details class="menu"><summary>Menu</summary><nav aria-label="Account menu">${links}</nav></details>`;
}

/** The page a browser gets while the database cannot be reached: nobody is known then, and nothing is read. */
export function unavailablePage(retryAfterSeconds: number): Markup {
  return layout(
    'Back in a moment',
    html`<p class="card">Milepost cannot reach its database just now. Nothing you did is lost: try again in ${retryAfterSeconds} seconds.</p><p><a href="">Try again</a></p>`,
    null,
    '',
  );
}

/** What a refused form says, above it, as an alert. */
export function issuesBlock(issues: readonly FieldIssue[] | string | undefined): Markup | null {
  if (!issues || issues.length === 0) return null;
  const items = typeof issues === 'string' ? [issues] : issues.map((i) => `${i.path.replace('_', ' ')}: ${i.message}`);
  return html`<div class="error" role="alert"><ul>${items.map((i) => html`<li>${i}</li>`)}</ul></div>`;
}

/** A hidden form field; nothing for an empty value. */
export function hidden(name: string, value: string | null | undefined): Markup | null {
  return value ? html`<input type="hidden" name="${name}" value="${value}">` : null;
}

/** What a browser at /graphql is told where GraphiQL is off (production's default): what the endpoint is, and how to turn it on. */
export function graphiqlOffPage(): Markup {
  return layout(
    'GraphQL',
    html`<div class="card"><p>This is Milepost's GraphQL endpoint. GraphiQL, the in-browser editor, is turned off on this server.</p>
<p>Apps send their operations here: <code>POST /graphql</code> with a JSON body, or <code>GET /graphql?query=…</code> with the header <code>GraphQL-Require-Preflight: 1</code>. The schema and its documentation are at <a href="/docs">/docs</a>.</p>
<p>Operators turn GraphiQL on with <code>GRAPHIQL=true</code> in the server's environment (it is on by default outside production).</p></div>`,
    null,
    '',
  );
}

/** A request that cannot go on (a forged form, an unknown app, a bad authorization request): what and why. */
export function problemPage(input: { csrf: string; viewer: PageViewer | null; error: string; description: string }): Markup {
  return layout(
    'This authorization request cannot be completed',
    html`<div class="card"><p class="error" role="alert">${input.description}</p>
     <p>Error code: <code>${input.error}</code>. Nothing was shared with the app. Please tell the app's developer.</p></div>`,
    input.viewer,
    input.csrf,
  );
}
