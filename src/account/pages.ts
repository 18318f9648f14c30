// Server-rendered pages of a person's account: sign-up, log-in, the account page (authorized apps,
// personal tokens, export, import, deletion) and the developer pages. Plain HTML forms that work
// without JavaScript; every value is escaped.

import type { CreatedApp, RegisteredApp } from '../db/oauth-clients.ts';
import type { Authorization, PersonalToken } from '../db/oauth-tokens.ts';
import type { FieldIssue } from '../domain/errors.ts';
import { PERSONAL_TOKEN_DAYS, SCOPE_DESCRIPTIONS, SCOPES } from '../domain/scopes.ts';
import { html, type Markup } from '../http/html.ts';
import { hidden, issuesBlock, layout, type PageViewer } from '../pages/layout.ts';
import type { DeliveryRow } from '../webhooks/settings.ts';

export function loginPage(input: { csrf: string; next: string | null; username?: string; error?: string }): Markup {
  return layout(
    'Log in',
    html`<div class="card">${issuesBlock(input.error)}
    <form method="post" action="/login">${hidden('csrf', input.csrf)}${hidden('next', input.next)}
      <label for="username">Username</label><input type="text" id="username" name="username" autocomplete="username" required value="${input.username ?? ''}">
      <label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
      <button type="submit">Log in</button>
    </form></div>
    <p>New here? <a href="/signup${input.next ? `?next=${encodeURIComponent(input.next)}` : ''}">Create an account</a>.</p>`,
    null,
    input.csrf,
  );
}

export function signupPage(input: {
  csrf: string;
  next: string | null;
  username?: string;
  displayName?: string;
  issues?: FieldIssue[];
}): Markup {
  return layout(
    'Sign up',
    html`<div class="card">${issuesBlock(input.issues)}
    <form method="post" action="/signup">${hidden('csrf', input.csrf)}${hidden('next', input.next)}
      <label for="username">Username</label><input type="text" id="username" name="username" autocomplete="username" required minlength="2" maxlength="30" pattern="[A-Za-z0-9][A-Za-z0-9_\\-]+" aria-describedby="username-rules" value="${input.username ?? ''}">
      <p class="help" id="username-rules">2 to 30 letters, digits, <code>_</code> or <code>-</code>, starting with a letter or digit. It is in your page's address and others find you by it.</p>
      <label for="display_name">Display name</label><input type="text" id="display_name" name="display_name" autocomplete="name" required maxlength="60" value="${input.displayName ?? ''}">
      <label for="password">Password (at least 8 characters)</label><input type="password" id="password" name="password" autocomplete="new-password" required minlength="8">
      <button type="submit">Create account</button>
    </form></div>
    <p>Have an account? <a href="/login${input.next ? `?next=${encodeURIComponent(input.next)}` : ''}">Log in</a>.</p>`,
    null,
    input.csrf,
  );
}

/** An archive import as the account page shows it. */
export interface ImportJobView {
  id: number;
  fileName: string;
  status: string;
  total: number;
  processed: number;
  created: number;
  duplicates: number;
  skippedCount: number;
  skipped: Array<{ item: string; reason: string }>;
  error: string | null;
  createdAt: Date;
}

function importJobBlock(job: ImportJobView): Markup {
  const state =
    job.status === 'done'
      ? `done: ${job.created} new ${job.created === 1 ? 'entry' : 'entries'}, ${job.duplicates} already here, ${job.skippedCount} skipped`
      : job.status === 'failed'
        ? `refused: ${job.error ?? 'the archive could not be read'}`
        : job.status === 'queued'
          ? 'waiting to start'
          : `importing: ${job.processed} of ${job.total || '…'}`;
  const bar =
    job.status === 'running' || job.status === 'queued'
      ? html`<progress max="${Math.max(job.total, 1)}" value="${job.processed}" aria-label="Import of ${job.fileName}">${job.processed}/${job.total}</progress>`
      : '';
  const skipped = job.skipped.length
    ? html`<details><summary>What was skipped, and why</summary><ul>${job.skipped
        .slice(0, 50)
        .map((s) => html`<li>${s.item}: ${s.reason}</li>`)}</ul></details>`
    : '';
  return html`<li><strong>${job.fileName}</strong> (${job.createdAt.toISOString().slice(0, 10)}): <span role="status">${state}</span>${bar}${skipped}</li>`;
}

export function accountPage(input: {
  csrf: string;
  viewer: PageViewer;
  authorizations: Authorization[];
  personalTokens?: PersonalToken[];
  /** A token just made: shown this once. */
  newToken?: { name: string; token: string };
  tokenError?: string;
  deleteError?: string;
  imports?: ImportJobView[];
  importError?: string;
}): Markup {
  const imports = input.imports ?? [];
  const active = imports.some((job) => job.status === 'running' || job.status === 'queued');
  const rows = input.authorizations.length
    ? html`<div class="scroll" tabindex="0" role="region" aria-label="Apps you authorized"><table><thead><tr><th>App</th><th>May</th><th>Authorized</th><th>Last used</th><th><span class="visually-hidden">Action</span></th></tr></thead><tbody>${input.authorizations.map(
        (
          a,
        ) => html`<tr><td>${a.client.name}</td><td><ul class="scopes">${a.scopes.map((scope) => html`<li title="${SCOPE_DESCRIPTIONS[scope]}"><code>${scope}</code></li>`)}</ul></td><td>${a.grantedAt.toISOString().slice(0, 10)}</td><td>${a.lastUsedAt ? a.lastUsedAt.toISOString().slice(0, 10) : 'never'}</td><td>
          <form method="post" action="/account/authorizations/revoke">${hidden('csrf', input.csrf)}${hidden('client_id', a.client.clientId)}
          <button type="submit" class="secondary" aria-label="Revoke access of ${a.client.name}">Revoke</button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No app can act for you.</p>`;
  // a refused form is said at the top, where the page opens, with a link to the form
  const refused = input.tokenError ? 'tokens-heading' : input.importError ? 'import-heading' : input.deleteError ? 'delete-heading' : null;
  const alert = refused && html`<p class="error" role="alert">That did not work: <a href="#${refused}">see why below</a>.</p>`;
  // while an import runs, the page looks again every 5 seconds (a plain refresh: no script)
  const head = active ? html`<meta http-equiv="refresh" content="5; url=/account#import-heading">` : undefined;
  return layout(
    `Hello, ${input.viewer.displayName}`,
    html`${alert}<div class="card"><h2>Apps you have authorized</h2>${rows}</div>
     ${personalTokensCard(input)}
     <div class="card"><p>Building an app? Register it on the <a href="/developers/apps">developer page</a>.</p></div>
     <div class="card"><h2>Take your data with you</h2><p><a href="/account/export" download>Download everything you posted</a>
       (a zip: your profile, entries and workouts, comments and likes, friends and routes as JSON, every track as GPX, your photos).</p></div>
     <div class="card"><h2 id="import-heading">Bring your activities</h2>${issuesBlock(input.importError)}
       <p>Upload the zip of a Strava bulk export (activities.csv with its FIT, TCX and GPX files) or of a Milepost export:
       each activity becomes a workout entry with its track, dated as it happened. It runs in the background; an
       archive imported twice makes nothing twice.</p>
       <form method="post" action="/account/import" enctype="multipart/form-data" aria-labelledby="import-heading">${hidden('csrf', input.csrf)}
       <label for="import-file">Export archive (.zip, up to 4 GB)</label>
       <input type="file" id="import-file" name="archive" accept=".zip,application/zip" required>
       <button type="submit">Import</button></form>
       ${imports.length ? html`<ul class="imports">${imports.map(importJobBlock)}</ul>` : ''}
       ${active ? html`<p><a href="/account#import-heading">Refresh to follow the progress</a> (this page refreshes itself every 5 seconds while an import runs).</p>` : ''}</div>
     <div class="card"><h2 id="delete-heading">Delete your account</h2>${issuesBlock(input.deleteError)}
       <p>This removes you and everything you posted at once, for good: your entries with their workouts, tracks,
       photos and the comments others left on them, your comments and likes, friends, routes, the apps you
       registered and every access token. Nothing can be restored.</p>
       <form method="post" action="/account/delete" aria-labelledby="delete-heading">${hidden('csrf', input.csrf)}
       <label for="delete-password">Your password, to confirm</label>
       <input type="password" id="delete-password" name="password" autocomplete="current-password" required>
       <label><input type="checkbox" name="confirm" value="yes" required> I understand that nothing can be restored</label>
       <button type="submit" class="danger">Delete my account</button></form></div>`,
    input.viewer,
    input.csrf,
    undefined,
    head,
  );
}

/** The account page's personal access tokens: the one just made (shown once), the live ones, and the form. */
function personalTokensCard(input: {
  csrf: string;
  personalTokens?: PersonalToken[];
  newToken?: { name: string; token: string };
  tokenError?: string;
}): Markup {
  const day = (date: Date | null, none: string) => (date ? date.toISOString().slice(0, 10) : none);
  const made = input.newToken
    ? html`<div role="status" class="created"><p>Your token <strong>${input.newToken.name}</strong>. Copy it now: it is not shown again.</p>
       <p><code class="secret" id="new-token">${input.newToken.token}</code></p>
       <p>Send it as <code>Authorization: Bearer …</code>, for instance from GraphiQL's headers at <a href="/graphql">/graphql</a>.</p></div>`
    : '';
  const tokens = input.personalTokens ?? [];
  const list = tokens.length
    ? html`<div class="scroll" tabindex="0" role="region" aria-label="Your personal tokens"><table><thead><tr><th>Name</th><th>May</th><th>Made</th><th>Expires</th><th>Last used</th><th><span class="visually-hidden">Action</span></th></tr></thead><tbody>${tokens.map(
        (t) => html`<tr><td>${t.name}</td><td><ul class="scopes">${t.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul></td>
          <td>${day(t.createdAt, '')}</td><td>${day(t.expiresAt, 'never')}</td><td>${day(t.lastUsedAt, 'never')}</td><td>
          <form method="post" action="/account/tokens/revoke">${hidden('csrf', input.csrf)}${hidden('id', String(t.id))}
          <button type="submit" class="secondary" aria-label="Revoke the token ${t.name}">Revoke</button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p>You have no personal tokens.</p>`;
  const choices = SCOPES.map((scope) =>
    scope === 'read'
      ? html`<li><label><input type="checkbox" checked disabled> ${SCOPE_DESCRIPTIONS[scope]}</label>${hidden('scope', scope)}</li>`
      : html`<li><label><input type="checkbox" name="scope" value="${scope}"> ${SCOPE_DESCRIPTIONS[scope]}</label></li>`,
  );
  return html`<div class="card"><h2 id="tokens-heading">Personal access tokens</h2>${issuesBlock(input.tokenError)}${made}
     <p>A token for your own scripts, or for trying the API in GraphiQL as you, with only what you tick.</p>${list}
     <form method="post" action="/account/tokens" aria-labelledby="tokens-heading">${hidden('csrf', input.csrf)}
       <label for="token-name">Name</label><input type="text" id="token-name" name="name" required maxlength="80">
       <fieldset><legend>It may</legend><ul class="scopes">${choices}</ul></fieldset>
       <label for="token-expires">Expires</label>
       <select id="token-expires" name="expires">${PERSONAL_TOKEN_DAYS.map((days) => html`<option value="${days}"${days === 30 ? ' selected' : ''}>in ${days} days</option>`)}<option value="never">never</option></select>
       <button type="submit">Make a token</button></form></div>`;
}

export function accountDeletedPage(input: { csrf: string; username: string }): Markup {
  return layout(
    'Your account is deleted',
    html`<div class="card" role="status"><p>@${input.username} and everything it held are gone, and every app's access ended.</p>
     <p><a href="/">Back to the latest entries</a></p></div>`,
    null,
    input.csrf,
  );
}

export function developerPage(input: {
  csrf: string;
  viewer: PageViewer;
  apps: Array<RegisteredApp & { webhookUrl?: string | null }>;
  created?: CreatedApp;
  issues?: FieldIssue[];
  form?: {
    name: string;
    redirectUris: string;
    confidential: boolean;
    allowImplicit?: boolean;
    allowPlainHttp?: boolean;
    legacyTokens?: boolean;
  };
  /** Shown once, when a webhook URL was first set. */
  webhookSecret?: { app: string; secret: string };
}): Markup {
  const created = input.created
    ? html`<div class="card" role="status"><h2>${input.created.name} is registered</h2>
        <p>client_id: <span class="secret" id="client-id">${input.created.clientId}</span></p>
        ${input.created.clientSecret ? html`<p>client_secret: <span class="secret" id="client-secret">${input.created.clientSecret}</span></p><p><strong>Copy the secret now:</strong> it is shown only once.</p>` : html`<p>A public client has no secret: use PKCE (S256).</p>`}</div>`
    : '';
  const list = input.apps.length
    ? html`<div class="scroll" tabindex="0" role="region" aria-label="Your apps"><table><thead><tr><th>Name</th><th>client_id</th><th>Tokens</th><th>Callbacks</th><th>Webhooks</th></tr></thead><tbody>${input.apps.map(
        (
          a,
        ) => html`<tr><td>${a.name}${a.confidential ? '' : ' (public)'}${a.allowImplicit || a.allowPlainHttp ? ' (legacy flows)' : ''}</td><td class="secret">${a.clientId}</td><td>${a.legacyTokens ? 'Legacy: never expire, no refresh token' : 'Expire, with a refresh token used once'}</td><td>${a.redirectUris.map((uri, i) => html`${i > 0 && html`<br>`}${uri}`)}</td>
          <td><form method="post" action="/developers/apps/webhook">${hidden('csrf', input.csrf)}${hidden('client_id', a.clientId)}
          <label for="webhook-${a.clientId}">Webhook URL</label><input type="url" id="webhook-${a.clientId}" name="webhook_url" value="${a.webhookUrl ?? ''}">
          <button type="submit" class="secondary">Save</button></form>
          <a href="/developers/apps/${encodeURIComponent(a.clientId)}/deliveries">Delivery log</a></td></tr>`,
      )}</tbody></table></div>`
    : html`<p>You have not registered an app yet.</p>`;
  const webhookHelp = input.apps.length
    ? html`<p>On saving a webhook URL, Milepost checks that you control it: it sends a <code>GET</code> with
       <code>hub.mode=subscribe</code> and <code>hub.challenge</code>, which must be answered within 5 seconds with status 200 and
       <code>{"hub.challenge": "&lt;the value sent&gt;"}</code>.</p>`
    : '';
  const form = input.form ?? { name: '', redirectUris: '', confidential: true };
  const signing = input.webhookSecret
    ? html`<div class="card" role="status"><h2>Webhooks for ${input.webhookSecret.app}</h2>
        <p>Signing secret: <span class="secret" id="webhook-secret">${input.webhookSecret.secret}</span></p>
        <p>Each delivery carries <code>X-Milepost-Signature: t=&lt;time&gt;,v1=&lt;HMAC-SHA256 of "&lt;time&gt;.&lt;body&gt;"&gt;</code>. Copy the secret now: it is shown only once.</p></div>`
    : '';
  return layout(
    'Developers',
    html`${created}${signing}<div class="card"><h2>Your apps</h2>${issuesBlock(input.issues?.filter((i) => i.path === 'webhook_url'))}${list}${webhookHelp}</div>
     <div class="card"><h2>Register an app</h2>${issuesBlock(input.issues?.filter((i) => i.path !== 'webhook_url'))}
     <form method="post" action="/developers/apps">${hidden('csrf', input.csrf)}
       <label for="name">Name</label><input type="text" id="name" name="name" required maxlength="80" value="${form.name}">
       <label for="redirect_uris">Callback URLs, one per line</label><textarea id="redirect_uris" name="redirect_uris" rows="3" required>${form.redirectUris}</textarea>
       <fieldset><legend>Client type</legend>
         <label><input type="radio" name="client_type" value="confidential"${form.confidential ? ' checked' : ''}> Confidential: a server that keeps a secret</label>
         <label><input type="radio" name="client_type" value="public"${form.confidential ? '' : ' checked'}> Public: a native or browser app (PKCE, no secret)</label>
       </fieldset>
       <fieldset><legend>Legacy flows (only for clients of the original service that need them)</legend>
         <label><input type="checkbox" name="allow_implicit" value="1"${form.allowImplicit ? ' checked' : ''}> Allow the user-agent (implicit) flow, <code>response_type=token</code>: the token travels in the URL; new apps use the code flow with PKCE</label>
         <label><input type="checkbox" name="allow_plain_http" value="1"${form.allowPlainHttp ? ' checked' : ''}> Allow plain <code>http://</code> callbacks on hosts other than loopback: codes and tokens then travel unencrypted</label>
         <label><input type="checkbox" name="legacy_tokens" value="1"${form.legacyTokens ? ' checked' : ''}> Tokens that never expire, without refresh tokens, for a client that cannot refresh (the user-agent flow's always are)</label>
       </fieldset>
       <button type="submit">Register</button>
     </form></div>`,
    input.viewer,
    input.csrf,
  );
}

export function deliveriesPage(input: {
  csrf: string;
  viewer: PageViewer;
  app: { name: string; clientId: string; webhookUrl: string | null };
  deliveries: DeliveryRow[];
  /** The delivery the developer just sent (a test event or a redelivery): its outcome leads the page. */
  sent?: number;
  issues?: FieldIssue[];
}): Markup {
  const base = `/developers/apps/${encodeURIComponent(input.app.clientId)}/deliveries`;
  const button = (action: string, label: string) =>
    html`<form method="post" action="${base}${action}">${hidden('csrf', input.csrf)}<button type="submit" class="secondary">${label}</button></form>`;
  const outcome = (d: DeliveryRow) =>
    d.status === 'delivered'
      ? `delivered: the receiver answered ${d.lastStatusCode}`
      : `${d.status === 'failed' ? 'failed' : 'not delivered yet'}: ${d.lastError ?? 'not tried yet'}${d.status === 'pending' ? `; tried again at ${d.nextAttemptAt.toISOString().slice(11, 19)} UTC` : ''}`;
  const sent = input.deliveries.find((d) => d.id === input.sent);
  const status = sent
    ? html`<div class="card" role="status"><p>Delivery ${sent.id} (<code>${sent.event}</code>) ${outcome(sent)}.</p></div>`
    : '';
  const rows = input.deliveries.length
    ? html`<div class="scroll" tabindex="0" role="region" aria-label="Deliveries"><table><thead><tr><th>#</th><th>Event</th><th>Status</th><th>Attempts</th><th>Last answer</th><th>Queued</th><th><span class="visually-hidden">Action</span></th></tr></thead><tbody>${input.deliveries.map(
        (
          d,
        ) => html`<tr><td>${d.id}</td><td>${d.event}</td><td>${d.status}${d.status === 'pending' && d.attempts > 0 ? ` (next ${d.nextAttemptAt.toISOString().slice(11, 19)} UTC)` : ''}</td>
          <td>${d.attempts}</td><td>${d.lastStatusCode ?? ''} ${d.lastError ?? ''}</td><td>${d.createdAt.toISOString().replace('T', ' ').slice(0, 19)}</td>
          <td>${d.status === 'failed' || d.status === 'delivered' ? button(`/${d.id}/redeliver`, 'Redeliver') : ''}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>Nothing has been sent yet.</p>`;
  return layout(
    `Webhook deliveries of ${input.app.name}`,
    html`${status}<div class="card">${issuesBlock(input.issues)}<p>URL: ${input.app.webhookUrl ? html`<code>${input.app.webhookUrl}</code>` : 'none set'}</p>
     ${input.app.webhookUrl ? html`<p>To check your receiver, send it a signed <code>ping</code> event now.</p>${button('/test', 'Send a test event')}` : ''}${rows}</div>
     <p><a href="/developers/apps">Back to your apps</a></p>`,
    input.viewer,
    input.csrf,
  );
}
