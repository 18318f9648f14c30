// The consent page of the authorization endpoint: what an app asks to do, in words, for the person to
// grant all, some, or none of it.
import { SCOPE_DESCRIPTIONS, type Scope } from '../domain/scopes.ts';
import { escapeMarkup as e } from '../domain/markup.ts';
import type { RegisteredApp } from '../db/oauth-store.ts';
import { hidden, layout, type PageViewer } from '../web/layout.ts';

export function consentPage(input: {
  csrf: string;
  viewer: PageViewer;
  app: RegisteredApp;
  params: URLSearchParams;
  responseType: 'code' | 'token';
  /** What the app asks for; the person may untick any but `read`. */
  scopes: readonly Scope[];
}): string {
  const fields = [...input.params.entries()].map(([k, v]) => hidden(k, v)).join('');
  const choices = input.scopes
    .map((scope) =>
      scope === 'read'
        ? `<li><label><input type="checkbox" checked disabled> ${e(SCOPE_DESCRIPTIONS[scope])}</label>${hidden('grant', scope)}</li>`
        : `<li><label><input type="checkbox" name="grant" value="${e(scope)}" checked> ${e(SCOPE_DESCRIPTIONS[scope])}</label></li>`,
    )
    .join('');
  const host = (() => {
    try {
      return new URL(input.params.get('redirect_uri') ?? '').host;
    } catch {
      return '';
    }
  })();
  return layout(
    `Authorize ${input.app.name}?`,
    `<div class="card">
      <p><strong>${e(input.app.name)}</strong> wants to use your Milepost account, <strong>${e(input.viewer.username)}</strong>.
      Untick what you do not want it to do:</p>
      <form method="post" action="/oauth/authorize">${hidden('csrf', input.csrf)}${fields}
        <ul class="scopes">${choices}</ul>
        <p>You can revoke its access at any time on your <a href="/account">account page</a>.</p>
        ${host ? `<p>You will be sent back to <strong>${e(host)}</strong>.</p>` : ''}
        <div class="actions">
          <button type="submit" name="decision" value="approve">Allow</button>
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </div>
      </form></div>`,
    input.viewer,
    input.csrf,
  );
}
