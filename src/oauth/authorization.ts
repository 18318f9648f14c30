// The OAuth 2.0 endpoints' rules (SPEC 5, RFC 6749, 7009, 7636, 8252, 8414), apart from HTML.
// The code flow and the token endpoint run through @node-oauth/oauth2-server; the user-agent flow
// (`response_type=token`), which the library does not implement, is built here on the same checks
// and the same store.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Prisma } from '../db/database.ts';
import { findApp, type RegisteredApp } from '../db/oauth-clients.ts';
import { introspectToken, issueAccessToken, revokeToken, rotateRefreshToken, type TokenLifetimes } from '../db/oauth-tokens.ts';
import { redirectUriMatches, redirectUriProblem, stripAppendedCallbackParams } from '../domain/accounts.ts';
import { formatScopes, grantedScopes, LEGACY_SCOPES, parseScopes, SCOPES, type Scope } from '../domain/scopes.ts';
import { AUTHORIZATION_CODE_LIFETIME_SECONDS, createModel, type OAuthClient } from './model.ts';

const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
] as const;
type AuthorizeParam = (typeof AUTHORIZE_PARAMS)[number];

export interface AuthorizeRequest {
  responseType: 'code' | 'token';
  clientId: string;
  redirectUri: string;
  state: string | null;
  scope: string | null;
  /** What the app asks for (domain/scopes.ts): LEGACY_SCOPES when it names none. */
  scopes: Scope[];
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
}

export type AuthorizeCheck =
  /** Shown to the person as a page: without a trusted redirect_uri there is nowhere safe to send them. */
  | { kind: 'error-page'; error: string; description: string }
  /** Sent back to the app's redirect_uri, as RFC 6749 4.1.2.1 asks. */
  | { kind: 'error-redirect'; location: string }
  | { kind: 'ok'; request: AuthorizeRequest; app: RegisteredApp };

/** Visible ASCII, as RFC 6749 allows in `state` and `client_id`. */
const VSCHAR = /^[\x20-\x7e]+$/;

/**
 * Reads the authorization request. COMPAT.md: the original service's Ruby client sends the draft-era
 * `type=web_server` instead of `response_type=code`; exactly that spelling is accepted, and only when
 * `response_type` is absent.
 */
export function readAuthorizeParams(params: URLSearchParams): { values: Partial<Record<AuthorizeParam, string>>; repeated: string | null } {
  const values: Partial<Record<AuthorizeParam, string>> = {};
  let repeated: string | null = null;
  for (const name of AUTHORIZE_PARAMS) {
    const all = params.getAll(name);
    if (all.length > 1) repeated ??= name;
    if (all[0] !== undefined && all[0] !== '') values[name] = all[0];
  }
  if (!values.response_type && params.get('type') === 'web_server') values.response_type = 'code';
  return { values, repeated };
}

export function redirectWithParams(
  request: Pick<AuthorizeRequest, 'redirectUri' | 'responseType'>,
  params: Record<string, string | null>,
): string {
  const pairs = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== null);
  const encoded = new URLSearchParams(pairs).toString();
  // the user-agent flow answers in the fragment, so the token never reaches a server log
  if (request.responseType === 'token') return `${request.redirectUri}#${encoded}`;
  return `${request.redirectUri}${request.redirectUri.includes('?') ? '&' : '?'}${encoded}`;
}

export async function checkAuthorizeRequest(prisma: Prisma, params: URLSearchParams): Promise<AuthorizeCheck> {
  const { values, repeated } = readAuthorizeParams(params);
  const page = (error: string, description: string): AuthorizeCheck => ({ kind: 'error-page', error, description });
  if (!values.client_id) return page('invalid_request', 'The request has no client_id: the app that sent you here is misconfigured.');
  if (!VSCHAR.test(values.client_id)) return page('invalid_request', 'The client_id is malformed.');
  const app = await findApp(prisma, values.client_id);
  if (!app) return page('invalid_client', 'No app is registered with this client_id.');
  if (!values.redirect_uri) return page('invalid_request', 'The request has no redirect_uri.');
  if (!redirectUriMatches(app.redirectUris, values.redirect_uri)) {
    return page('invalid_request', `The redirect_uri is not one that "${app.name}" registered.`);
  }
  // a callback registered before plain http became opt-in, on an app that has not opted in
  if (redirectUriProblem(values.redirect_uri, app.allowPlainHttp)) {
    return page('invalid_request', `The redirect_uri uses plain http, which "${app.name}" does not allow.`);
  }
  const responseType = values.response_type === 'code' || values.response_type === 'token' ? values.response_type : null;
  const request: AuthorizeRequest = {
    responseType: responseType ?? 'code',
    clientId: app.clientId,
    redirectUri: values.redirect_uri,
    state: values.state ?? null,
    scope: values.scope ?? null,
    scopes: [...LEGACY_SCOPES],
    codeChallenge: values.code_challenge ?? null,
    codeChallengeMethod: values.code_challenge ? (values.code_challenge_method ?? 'S256') : null,
  };
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'error-redirect',
    location: redirectWithParams(request, {
      error,
      error_description: description,
      state: request.state && VSCHAR.test(request.state) ? request.state : null,
    }),
  });
  if (repeated) return fail('invalid_request', `${repeated} is repeated`);
  if (request.state !== null && !VSCHAR.test(request.state)) return fail('invalid_request', 'state must be visible ASCII');
  if (!values.response_type) return fail('invalid_request', 'response_type is required (code or token)');
  const asked = parseScopes(request.scope);
  // RFC 6749 4.1.2.1: a scope this service does not have
  if ('unknown' in asked) return fail('invalid_scope', `unknown scope ${asked.unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}`);
  request.scopes = asked.scopes;
  if (!responseType) return fail('unsupported_response_type', 'response_type must be code or token');
  if (responseType === 'token' && !app.allowImplicit) {
    return fail('unauthorized_client', 'this app does not use the user-agent (implicit) flow; use response_type=code with PKCE');
  }
  if (request.responseType === 'code') {
    if (request.codeChallenge !== null) {
      if (request.codeChallengeMethod !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
      if (!/^[A-Za-z0-9_-]{43}$/.test(request.codeChallenge))
        return fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest (43 characters)');
    } else if (!app.confidential) {
      // a public client has no secret: PKCE is what keeps a stolen code useless (RFC 8252 8.1)
      return fail('invalid_request', 'public clients must send code_challenge with code_challenge_method=S256');
    }
  } else if (request.codeChallenge !== null) {
    return fail('invalid_request', 'code_challenge belongs to response_type=code');
  }
  return { kind: 'ok', request, app };
}

/** The person approved: the redirect that carries a code (through the library) or a token (fragment). */
export async function approveAuthorization(
  prisma: Prisma,
  request: AuthorizeRequest,
  app: RegisteredApp,
  personId: number,
  granted: readonly Scope[],
): Promise<string> {
  const scope = formatScopes(granted);
  if (request.responseType === 'token') {
    const token = await issueAccessToken(prisma, { clientId: app.id, personId, scope });
    return redirectWithParams(request, { access_token: token, token_type: 'bearer', scope, state: request.state });
  }
  const server = new OAuth2Server({
    model: createModel(prisma, 'authorize'),
    allowEmptyState: true,
    authorizationCodeLifetime: AUTHORIZATION_CODE_LIFETIME_SECONDS,
  });
  const query: Record<string, string> = { response_type: 'code', client_id: request.clientId, redirect_uri: request.redirectUri };
  if (request.state) query.state = request.state;
  // what the person granted, which the code and its token carry
  query.scope = scope;
  if (request.codeChallenge) {
    query.code_challenge = request.codeChallenge;
    query.code_challenge_method = request.codeChallengeMethod ?? 'S256';
  }
  const libraryRequest = new OAuth2Server.Request({ method: 'GET', headers: {}, query, body: {} });
  const libraryResponse = new OAuth2Server.Response({ headers: {} });
  try {
    await server.authorize(libraryRequest, libraryResponse, { authenticateHandler: { handle: () => ({ id: personId }) } });
  } catch (error) {
    // the library has already pointed the response at redirect_uri with the error
    if (!(error instanceof OAuth2Server.OAuthError) || !libraryResponse.headers?.location) throw error;
  }
  return libraryResponse.headers!.location as string;
}

export function denyAuthorization(request: AuthorizeRequest): string {
  return redirectWithParams(request, {
    error: 'access_denied',
    error_description: 'The person declined to authorize the app.',
    state: request.state,
  });
}

export interface EndpointResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): EndpointResponse {
  return { status, body: { error, error_description: description }, headers: { ...NO_STORE, ...headers } };
}

/**
 * The token request's parameters. COMPAT.md: old clients send them in the query string with an empty
 * body; the Ruby client sends `type=web_server` instead of `grant_type`; a login library appends
 * `?code=…&state=…` to `redirect_uri`. Each is undone exactly, nothing looser.
 */
export function readTokenParams(
  form: URLSearchParams,
  query: URLSearchParams,
): { params: Record<string, string>; repeated: string | null } {
  const params: Record<string, string> = {};
  let repeated: string | null = null;
  const source = [...form.keys()].length > 0 ? form : query;
  for (const name of new Set(source.keys())) {
    const all = source.getAll(name);
    if (all.length > 1) repeated ??= name;
    params[name] = all[0]!;
  }
  if (source === form) {
    // client credentials may still sit in the query string of an otherwise normal request
    for (const name of ['client_id', 'client_secret']) if (params[name] === undefined && query.get(name)) params[name] = query.get(name)!;
  }
  if (!params.grant_type && params.type === 'web_server') params.grant_type = 'authorization_code';
  if (params.redirect_uri && params.code) params.redirect_uri = stripAppendedCallbackParams(params.redirect_uri, params.code);
  return { params, repeated };
}

export async function exchangeToken(
  prisma: Prisma,
  input: { form: URLSearchParams; query: URLSearchParams; authorization: string | null },
  lifetimes: TokenLifetimes,
): Promise<EndpointResponse> {
  const { params, repeated } = readTokenParams(input.form, input.query);
  if (repeated) return oauthError(400, 'invalid_request', `${repeated} is repeated`);
  if (!params.grant_type) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (params.grant_type === 'refresh_token') return refreshGrant(prisma, params, input.authorization, lifetimes);
  if (params.grant_type !== 'authorization_code')
    return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  const server = new OAuth2Server({ model: createModel(prisma, 'token', lifetimes) });
  // the library checks the body's type the way Express does, which needs a length to see a body at all
  const encoded = new URLSearchParams(params).toString();
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(Buffer.byteLength(encoded)),
  };
  if (input.authorization) headers.authorization = input.authorization;
  const request = new OAuth2Server.Request({ method: 'POST', headers, query: {}, body: params });
  const response = new OAuth2Server.Response({ headers: {} });
  try {
    const token = await server.token(request, response, { requireClientAuthentication: { authorization_code: true } });
    // RFC 6749 5.1: the scope granted, which may be less than asked
    const scope = formatScopes(grantedScopes(token.scope?.join(' ') ?? null));
    // an app's token expires, with a refresh token; a legacy app's does not
    const expiring = token.refreshToken ? { expires_in: lifetimes.accessSeconds, refresh_token: token.refreshToken } : {};
    return { status: 200, body: { access_token: token.accessToken, token_type: 'bearer', ...expiring, scope }, headers: { ...NO_STORE } };
  } catch (error) {
    if (!(error instanceof OAuth2Server.OAuthError)) throw error;
    const name = error.name === 'server_error' ? 'server_error' : error.name;
    const basic = /^Basic\s/i.test(input.authorization ?? '');
    // RFC 6749 5.2: 401 with a challenge when the client tried HTTP authentication
    if (name === 'invalid_client')
      return oauthError(401, name, error.message, basic ? { 'www-authenticate': 'Basic realm="milepost"' } : {});
    if (name === 'server_error') throw error;
    return oauthError(error.code === 401 ? 401 : 400, name, error.message);
  }
}

/** RFC 6749 2.3.1: base64 of `client_id:client_secret`, each form-URL-encoded; null when malformed. */
function basicCredentials(encoded: string): { clientId: string; clientSecret: string } | null {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/**
 * The app a request of the token, revocation or introspection endpoint comes from, authenticated as at
 * the token endpoint (`client_id` and `client_secret` in the form, or HTTP Basic; a public client by
 * its id alone); or the error answer.
 */
async function authenticatedClient(
  prisma: Prisma,
  input: { form: URLSearchParams | Record<string, string>; authorization: string | null },
): Promise<{ client: OAuthClient } | { refused: EndpointResponse }> {
  const field = (name: string) => (input.form instanceof URLSearchParams ? input.form.get(name) : (input.form[name] ?? null));
  let clientId = field('client_id');
  let clientSecret = field('client_secret');
  const basic = /^Basic\s+(\S+)$/i.exec(input.authorization ?? '');
  const challenge: Record<string, string> = basic ? { 'www-authenticate': 'Basic realm="milepost"' } : {};
  if (basic) {
    const credentials = basicCredentials(basic[1]!);
    if (!credentials)
      return {
        refused: oauthError(
          401,
          'invalid_client',
          'the Basic credentials are malformed: base64 of client_id:client_secret, each URL-encoded',
          challenge,
        ),
      };
    ({ clientId, clientSecret } = credentials);
  }
  if (!clientId) return { refused: oauthError(401, 'invalid_client', 'client authentication is required') };
  const client = await createModel(prisma, 'token').getClient(clientId, clientSecret ?? '');
  if (!client) return { refused: oauthError(401, 'invalid_client', 'client authentication failed', challenge) };
  return { client: client as OAuthClient };
}

/** RFC 7009. The client authenticates as at the token endpoint; an unknown token is not an error. */
export async function revokeAccessToken(
  prisma: Prisma,
  input: { form: URLSearchParams; authorization: string | null },
): Promise<EndpointResponse> {
  const token = input.form.get('token');
  if (!token) return oauthError(400, 'invalid_request', 'token is required');
  const authenticated = await authenticatedClient(prisma, input);
  if ('refused' in authenticated) return authenticated.refused;
  await revokeToken(prisma, token, authenticated.client.rowId);
  return { status: 200, body: {}, headers: { ...NO_STORE } };
}

/**
 * RFC 7662, for confidential clients: whether a token (access or refresh) is live, and what it is. An
 * app learns only of its own tokens: another app's is `{"active": false}`, as an unknown one.
 */
export async function introspect(
  prisma: Prisma,
  input: { form: URLSearchParams; authorization: string | null },
): Promise<EndpointResponse> {
  const authenticated = await authenticatedClient(prisma, input);
  if ('refused' in authenticated) return authenticated.refused;
  if (!authenticated.client.confidential)
    return oauthError(401, 'invalid_client', 'introspection is for confidential clients: authenticate with the client secret');
  const token = input.form.get('token');
  if (!token) return oauthError(400, 'invalid_request', 'token is required');
  const found = await introspectToken(prisma, token, authenticated.client.rowId);
  if (!found) return { status: 200, body: { active: false }, headers: { ...NO_STORE } };
  return {
    status: 200,
    body: {
      active: true,
      scope: found.scope,
      client_id: found.clientId,
      username: found.username,
      token_type: found.refresh ? 'refresh_token' : 'bearer',
      ...(found.exp === null ? {} : { exp: found.exp }),
      iat: found.iat,
    },
    headers: { ...NO_STORE },
  };
}

/** `grant_type=refresh_token` (RFC 6749 6): the next pair of the refresh token's family; a replay revokes the family. */
async function refreshGrant(
  prisma: Prisma,
  params: Record<string, string>,
  authorization: string | null,
  lifetimes: TokenLifetimes,
): Promise<EndpointResponse> {
  const authenticated = await authenticatedClient(prisma, { form: params, authorization });
  if ('refused' in authenticated) return authenticated.refused;
  if (!params.refresh_token) return oauthError(400, 'invalid_request', 'refresh_token is required');
  const asked = params.scope === undefined ? null : parseScopes(params.scope);
  if (asked && 'unknown' in asked) return oauthError(400, 'invalid_scope', `unknown scope ${asked.unknown.join(', ')}`);
  const outcome = await rotateRefreshToken(prisma, {
    refreshToken: params.refresh_token,
    clientId: authenticated.client.rowId,
    scope: asked ? asked.scopes : null,
    lifetimes,
  });
  if (outcome.kind === 'wider-scope')
    return oauthError(400, 'invalid_scope', 'a refresh may keep or narrow the scopes granted, never widen them');
  if (outcome.kind !== 'ok')
    return oauthError(
      400,
      'invalid_grant',
      outcome.kind === 'replayed'
        ? 'the refresh token was used already: every token of its grant is revoked; ask the person again'
        : 'the refresh token is not valid (unknown, expired, revoked, or another app’s)',
    );
  return {
    status: 200,
    body: {
      access_token: outcome.accessToken,
      token_type: 'bearer',
      expires_in: outcome.expiresIn,
      refresh_token: outcome.refreshToken,
      scope: formatScopes(grantedScopes(outcome.scope)),
    },
    headers: { ...NO_STORE },
  };
}

/** RFC 8414 metadata. */
export function authorizationServerMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    introspection_endpoint: `${baseUrl}/oauth/introspect`,
    response_types_supported: ['code', 'token'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'implicit'],
    scopes_supported: [...SCOPES],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    code_challenge_methods_supported: ['S256'],
    service_documentation: `${baseUrl}/graphql`,
  };
}
