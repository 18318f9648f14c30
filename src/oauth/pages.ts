// The consent page of the authorization endpoint: what an app asks to do, in words, for the person to
// grant all, some, or none of it.

import type { RegisteredApp } from '../db/oauth-clients.ts';
import { SCOPE_DESCRIPTIONS, type Scope } from '../domain/scopes.ts';
import { html, type Markup } from '../http/html.ts';
import { hidden, layout, type PageViewer } from '../pages/layout.ts';

export function consentPage(input: {
  csrf: string;
  viewer: PageViewer;
  app: RegisteredApp;
  params: URLSearchParams;
  responseType: 'code' | 'token';
  /** What the app asks for; the person may untick any but `read`. */
  scopes: readonly Scope[];
}): Markup {
  const fields = [...input.params.entries()].map(([k, v]) => hidden(k, v));
  const choices = input.scopes.map((scope) =>
    scope === 'read'
      ? html`<li><label><input type="checkbox" checked disabled> ${SCOPE_DESCRIPTIONS[scope]}</label>${hidden('grant', scope)}</li>`
      : html`<li><label><input type="checkbox" name="grant" value="${scope}" checked> ${SCOPE_DESCRIPTIONS[scope]}</label></li>`,
  );
  const host = (() => {
    try {
      return new URL(input.params.get('redirect_uri') ?? '').host;
    } catch {
      return '';
    }
  })();
  return layout(
    `Authorize ${input.app.name}?`,
    html`<div class="card">
      <p><strong>${input.app.name}</strong> wants to use your Milepost account, <strong>${input.viewer.username}</strong>.
      Untick what you do not want it to do:</p>
      <form method="post" action="/oauth/authorize">${hidden('csrf', input.csrf)}${fields}
        <ul class="scopes">${choices}</ul>
        <p>You can revoke its access at any time on your <a href="/account">account page</a>.</p>
        ${host ? html`<p>You will be sent back to <strong>${host}</strong>.</p>` : ''}
        <div class="actions">
          <button type="submit" name="decision" value="approve">Allow</button>
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </div>
      </form></div>`,
    input.viewer,
    input.csrf,
  );
}
