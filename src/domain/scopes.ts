// What an app may do for a person: the scopes of OAuth tokens, modelled on Strava's. No I/O.
//
// - `read`: what the person sees of Milepost, except what only they see (their only-me entries,
//   their stats when they keep them to themselves, their privacy zones). Every token has it.
// - `read_all`: what only they see, too.
// - `entries:write`: post, change and delete their entries, routes, tracks and gear; comment and like.
// - `profile:write`: change their profile and privacy settings; ask for, accept and end friendships.
//
// An app that asks for no scope, as every client of the original service does, gets LEGACY_SCOPES:
// everything the original API could do, which never included entries nobody else sees.

export const SCOPES = ['read', 'read_all', 'entries:write', 'profile:write'] as const;
export type Scope = (typeof SCOPES)[number];

/** What the consent page says each scope lets the app do, in the athlete's words. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: 'See your profile, your friends, and the entries and stats you can see, except what only you see',
  read_all: 'Also see what only you see: your only-me entries, your private stats and your privacy zones',
  'entries:write': 'Post, change and delete your entries, routes, tracks and gear; comment and like as you',
  'profile:write': 'Change your profile and privacy settings; ask for, accept and end friendships',
};

/** What a token granted without a `scope` may do: everything the original API could. */
export const LEGACY_SCOPES: readonly Scope[] = ['read', 'entries:write', 'profile:write'];

/** Every scope: a token the person makes for themselves (the operator's CLI, the session's GraphiQL). */
export const ALL_SCOPES: readonly Scope[] = SCOPES;

const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Scopes in their one order, `read` always among them, joined as OAuth writes them (space-separated). */
export function formatScopes(scopes: Iterable<Scope>): string {
  const granted = new Set<Scope>(scopes);
  granted.add('read');
  return SCOPES.filter((scope) => granted.has(scope)).join(' ');
}

/**
 * The scopes an app asks for: a space-separated list (RFC 6749 3.3; commas too, as Strava's clients
 * send them). None asked is LEGACY_SCOPES. A name this service does not know is `unknown`, which the
 * authorization endpoint answers with `invalid_scope`.
 */
export function parseScopes(text: string | null | undefined): { scopes: Scope[] } | { unknown: string[] } {
  const names = (text ?? '').split(/[\s,]+/).filter((name) => name !== '');
  if (names.length === 0) return { scopes: [...LEGACY_SCOPES] };
  const unknown = names.filter((name) => !isScope(name));
  if (unknown.length > 0) return { unknown: [...new Set(unknown)] };
  return { scopes: formatScopes(names as Scope[]).split(' ') as Scope[] };
}

/** Grants as stored, read once each: every request with a token asks (a handful of distinct strings). */
const GRANTS = new Map<string, ReadonlySet<Scope>>();

/** What a stored grant allows: its scopes, or LEGACY_SCOPES for one stored without (every token granted before scopes). */
export function grantedScopes(stored: string | null | undefined): ReadonlySet<Scope> {
  const key = stored ?? '';
  const known = GRANTS.get(key);
  if (known) return known;
  const parsed = parseScopes(key);
  // a stored name this release no longer knows grants nothing beyond the rest
  const granted: ReadonlySet<Scope> = new Set('unknown' in parsed ? key.split(/[\s,]+/).filter(isScope) : parsed.scopes);
  if (GRANTS.size < 1000) GRANTS.set(key, granted);
  return granted;
}

/** The scopes of `asked` the person chose to grant: a subset, never more than was asked; `read` always. */
export function narrowScopes(asked: readonly Scope[], chosen: readonly string[]): Scope[] {
  return formatScopes(asked.filter((scope) => scope === 'read' || chosen.includes(scope))).split(' ') as Scope[];
}

/** Days a personal access token may be given to live; without one of them, it lives until revoked. */
export const PERSONAL_TOKEN_DAYS = [7, 30, 90, 365] as const;
