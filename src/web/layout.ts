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
  header { background: #1f6f50; color: #fff; padding: .6rem 1rem; display: flex; gap: .75rem; align-items: center; }
  header a, header button { color: #fff; white-space: nowrap; }
  header .brand { font-weight: 700; text-decoration: none; margin-right: auto; }
  header nav { display: flex; gap: .75rem; align-items: center; overflow-x: auto; font-size: .95rem; }
  @media (max-width: 30rem) { header nav .wide { display: none; } }
  main { max-width: 36rem; margin: 1.5rem auto; padding: 0 1rem; }
  .card { background: #fff; border-radius: 8px; padding: 1.25rem; box-shadow: 0 1px 3px rgba(0,0,0,.12); margin-bottom: 1rem; }
  label { display: block; margin-top: .75rem; font-weight: 600; }
  input[type=text], input[type=password], input[type=url], textarea { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #8a94a6; border-radius: 4px; }
  button { font: inherit; padding: .5rem 1rem; border-radius: 4px; border: 1px solid #1f6f50; background: #1f6f50; color: #fff; cursor: pointer; margin-top: 1rem; }
  button.secondary { background: #fff; color: #1f6f50; }
  button.danger { background: #b3261e; border-color: #b3261e; color: #fff; }
  header form button { margin: 0; background: transparent; border-color: #fff; }
  header .bell { text-decoration: none; }
  header .bell .count { display: inline-block; margin-left: .15rem; padding: 0 .35rem; border-radius: 1rem; background: #fff; color: #8c1d18; font-size: .8rem; font-weight: 700; }
  .error { background: #fdecea; border: 1px solid #b3261e; color: #8c1d18; padding: .5rem .75rem; border-radius: 4px; }
  .help { color: #4a5568; font-size: .9rem; margin: .25rem 0 0; }
  .secret { font-family: ui-monospace, monospace; word-break: break-all; background: #f0f3f0; padding: .25rem .5rem; }
  .actions { display: flex; gap: .5rem; flex-wrap: wrap; }
  table { width: 100%; border-collapse: collapse; } td, th { text-align: left; padding: .25rem .5rem .25rem 0; vertical-align: top; }
`);

/** A whole page: `style` adds to the shared style sheet, `head` to the document's head. */
export function layout(title: string, body: Markup, viewer: PageViewer | null, csrf: string, style?: Markup, head?: Markup): Markup {
  const nav = viewer
    ? html`<a href="/notifications" class="bell" aria-label="${viewer.unread ? `Notifications: ${viewer.unread} unread` : 'Notifications'}">🔔${viewer.unread ? html`<span class="count">${viewer.unread > 99 ? '99+' : viewer.unread}</span>` : null}</a>
       <a href="/people/${encodeURIComponent(viewer.username)}">${viewer.displayName}</a> <a href="/settings">Settings</a>
       <a href="/account">Account</a> <a class="wide" href="/developers/apps">Developers</a>
       <form method="post" action="/logout"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Log out</button></form>`
    : html`<a href="/login">Log in</a> <a href="/signup">Sign up</a>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Milepost</title><style>${STYLE}${style}</style>${head}</head>
<body><header><a class="brand" href="/">Milepost</a><nav aria-label="Account">${nav}</nav></header>
<main><h1>${title}</h1>${body}</main></body></html>`;
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
