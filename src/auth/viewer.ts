// Who a request acts for: resolved from its access token (src/auth/tokens.ts), read by every layer above.
import { ALL_SCOPES, type Scope } from '../domain/scopes.ts';

/** The person an access token speaks for, and the app that holds it. */
export interface Viewer {
  readonly id: number;
  readonly username: string;
  readonly clientId: number | null;
  /** What the person granted the token (domain/scopes.ts); a session acting in the browser has every scope. */
  readonly scopes: ReadonlySet<Scope>;
  /**
   * Whether the person is in a block or a mute (Person.keptApart): only then do reads leave people out
   * for them. Unknown (a browser session) counts as yes.
   */
  readonly keptApart?: boolean;
}

/** The athlete logged in to the pages, acting in their own browser: every scope is theirs. */
export function sessionViewer(account: { id: number; username: string }): Viewer {
  return { id: account.id, username: account.username, clientId: null, scopes: new Set(ALL_SCOPES) };
}
