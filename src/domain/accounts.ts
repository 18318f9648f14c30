// Rules for people's accounts and registered apps: pure, so that pages, CLI and GraphQL share them.
import type { UnitPreference } from './activity.ts';
import { type FieldIssue, ValidationError } from './errors.ts';

/** `me` names the token's person in paths (SPEC 2.1), so nobody may be called that. */
const RESERVED_USERNAMES = new Set(['me', 'admin', 'root', 'oauth', 'api', 'login', 'logout', 'signup', 'account', 'developers']);
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{1,29}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

export interface SignUpInput {
  username: string;
  password: string;
  displayName: string;
  /** What distances are read in until the athlete chooses (the browser's language suggests it). */
  units?: UnitPreference;
}

export function usernameKey(username: string): string {
  return username.toLowerCase();
}

/** A line break or control character (CR, LF, NEL, U+2028, tabs…): a name is shown on one line, in mails too. */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u;

/** What is wrong with a display name (already trimmed), or null: 1 to 60 characters on one line. */
export function displayNameProblem(name: string): string | null {
  if (name.length < 1 || name.length > 60) return 'must be 1 to 60 characters';
  if (NOT_ONE_LINE.test(name)) return 'must be one line, without line breaks or control characters';
  return null;
}

export function validateSignUp(input: SignUpInput): SignUpInput {
  const issues: FieldIssue[] = [];
  const username = input.username.trim();
  const displayName = input.displayName.trim();
  if (!USERNAME_PATTERN.test(username)) {
    issues.push({ path: 'username', message: 'must be 2 to 30 letters, digits, _ or -, starting with a letter or digit' });
  } else if (RESERVED_USERNAMES.has(usernameKey(username))) {
    issues.push({ path: 'username', message: `"${username}" is reserved` });
  }
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX) {
    issues.push({ path: 'password', message: `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters` });
  }
  const nameProblem = displayNameProblem(displayName);
  if (nameProblem) issues.push({ path: 'display_name', message: nameProblem });
  if (issues.length) throw new ValidationError(issues);
  return { username, password: input.password, displayName, ...(input.units && { units: input.units }) };
}

export interface AppInput {
  name: string;
  redirectUris: string[];
  confidential: boolean;
  /** Legacy (RFC 9700 2.1.2): the user-agent flow, `response_type=token`. Off unless asked for. */
  allowImplicit?: boolean;
  /** Legacy: plain `http://` callbacks on hosts other than loopback. Off unless asked for. */
  allowPlainHttp?: boolean;
  /** Legacy: access tokens that never expire, without refresh tokens. On with the user-agent flow, which cannot refresh. */
  legacyTokens?: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A callback URL an app may register: absolute, no fragment (RFC 6749 3.1.2), https or a loopback
 * http address, or a private-use scheme for native apps (RFC 8252 7.1: `com.example.app:/cb`).
 * Plain http elsewhere only for an app that opted in to it (the original service's clients).
 */
export function redirectUriProblem(uri: string, allowPlainHttp = false): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    if (allowPlainHttp || LOOPBACK_HOSTS.has(url.hostname)) return null;
    return 'must use https (plain http only on a loopback address, or for a legacy app that allows it)';
  }
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) return null;
  if (url.protocol === 'javascript:' || url.protocol === 'data:' || url.protocol === 'file:') return `must not use ${url.protocol}`;
  return 'must use https, http, or a reverse-domain private scheme such as com.example.app:';
}

export function validateApp(input: AppInput): AppInput {
  const issues: FieldIssue[] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) issues.push({ path: 'name', message: 'must be 1 to 80 characters' });
  const uris = input.redirectUris.map((u) => u.trim()).filter(Boolean);
  if (uris.length === 0) issues.push({ path: 'redirect_uri', message: 'at least one callback URL is required' });
  if (uris.length > 10) issues.push({ path: 'redirect_uri', message: 'at most 10 callback URLs' });
  uris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri, input.allowPlainHttp);
    if (problem) issues.push({ path: `redirect_uri[${i}]`, message: `${uri} ${problem}` });
  });
  if (issues.length) throw new ValidationError(issues);
  return {
    name,
    redirectUris: [...new Set(uris)],
    confidential: input.confidential,
    allowImplicit: input.allowImplicit ?? false,
    allowPlainHttp: input.allowPlainHttp ?? false,
    legacyTokens: (input.legacyTokens ?? false) || (input.allowImplicit ?? false),
  };
}

/**
 * Whether `requested` may be used for an app that registered `registered`: the same string exactly,
 * or for a loopback http callback (RFC 8252 7.3) the same URL on any port.
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !LOOPBACK_HOSTS.has(asked.hostname) || !asked.port) return false;
  return registered.some((candidate) => {
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' || url.hostname !== asked.hostname) return false;
    // compare everything but the port, textually, so no normalisation widens the match
    const withoutPort = (u: string, port: string) => (port ? u.replace(`:${port}`, '') : u);
    return withoutPort(candidate, url.port) === withoutPort(requested, asked.port);
  });
}

/**
 * COMPAT.md: a widely used login library sends the token request's `redirect_uri` with
 * `?code=…&state=…` appended. Returns the URI without exactly those parameters, appended last, when
 * `code` is the code being exchanged; otherwise the URI unchanged.
 */
export function stripAppendedCallbackParams(redirectUri: string, code: string): string {
  const index = redirectUri.search(/[?&]code=/);
  if (index < 0) return redirectUri;
  const base = redirectUri.slice(0, index);
  const separator = redirectUri[index];
  // `?` when the registered URI had no query, `&` when it had one
  if ((separator === '?') === base.includes('?')) return redirectUri;
  const appended = new URLSearchParams(redirectUri.slice(index + 1));
  const keys = [...appended.keys()];
  const onlyCodeAndState = keys.length <= 2 && keys[0] === 'code' && (keys.length === 1 || keys[1] === 'state');
  if (!onlyCodeAndState || appended.get('code') !== code) return redirectUri;
  return base;
}
