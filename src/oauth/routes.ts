// HTTP edge of the authorization server: account pages, the developer page, and the OAuth endpoints.
import { narrowScopes } from '../domain/scopes.ts';
import { discardRest } from '../http/body.ts';
import { ImportAlreadyQueuedError, importsDirectory, queueArchiveImport, removeImportFiles } from '../imports/jobs.ts';
import { receiveArchive } from '../http/archive-upload.ts';
import { redeliver, sendTestEvent, type DeliveryOptions } from '../webhooks/deliveries.ts';
import { Readable } from 'node:stream';
import {
  CSRF_COOKIE,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  csrfMatches,
  newCsrfToken,
  newSessionToken,
  parseCookies,
  readSessionToken,
  serializeCookie,
  signSessionToken,
} from '../auth/session.ts';
import { LOGIN_RULES, TOKEN_RULES, type GuessThrottle } from '../auth/throttle.ts';
import { accountExport } from '../db/account-export.ts';
import { deleteAccount } from '../db/accounts.ts';
import type { Prisma } from '../db/database.ts';
import type { MediaStore } from '../media/store.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { htmlResponse, jsonResponse, readForm, redirectResponse, type RequestContext, type Router } from '../http/router.ts';
import {
  approveAuthorization,
  authorizationServerMetadata,
  checkAuthorizeRequest,
  denyAuthorization,
  exchangeToken,
  introspect,
  revokeAccessToken,
  type EndpointResponse,
} from './authorization.ts';
import {
  accountDeletedPage,
  accountPage,
  consentPage,
  deliveriesPage,
  developerPage,
  loginPage,
  oauthErrorPage,
  signupPage,
} from './pages.ts';
import {
  accountOfSession,
  appsOwnedBy,
  authorizationsOf,
  checkPassword,
  createAccount,
  createApp,
  createSession,
  deliveriesOf,
  endSession,
  revokeAuthorization,
  setWebhook,
  type Account,
  createPersonalToken,
  personalTokensOf,
  revokePersonalToken,
  type TokenLifetimes,
} from './store.ts';

export interface OAuthRoutesOptions {
  prisma: Prisma;
  sessionSecret: string;
  baseUrl: (request: Request) => string;
  /** Guessing limits for /login and /oauth/token, counted where the rate limit is (memory or Redis). */
  throttle: GuessThrottle;
  /** How the developer page's test events and redeliveries are sent (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_RETRY_BASE_SECONDS). */
  webhooks: DeliveryOptions;
  /** Where photos are kept: a deleted account's go with it. */
  media: MediaStore;
  /** How long an app's tokens work (a legacy app's never expire). */
  tokenLifetimes: TokenLifetimes;
}

const SAME_ORIGIN = 'http://milepost.invalid';

/**
 * Only a path on this site may follow a log-in, judged the way a browser reads it: a URL parser
 * drops tabs and newlines and reads `\` as `/`, so `/%09/evil.example` leads to another origin.
 */
export function safeNext(value: string | null): string | null {
  if (!value?.startsWith('/')) return null;
  // control characters and backslashes are never part of a path of ours; browsers rewrite them
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, SAME_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== SAME_ORIGIN) return null;
  // judge the result, not the input: removing dot segments turns `/.//evil.example` into `//evil.example`,
  // which a browser reads as another host
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//') || new URL(path, SAME_ORIGIN).origin !== SAME_ORIGIN) return null;
  return path;
}

/** What every page needs: the logged-in person (if any) and a CSRF token, with the cookies to set. */
export async function pageSession(options: Pick<OAuthRoutesOptions, 'prisma' | 'sessionSecret' | 'baseUrl'>, request: Request) {
  const cookies = parseCookies(request.headers.get('cookie'));
  const sessionToken = readSessionToken(options.sessionSecret, cookies[SESSION_COOKIE]);
  const viewer: Account | null = sessionToken ? await accountOfSession(options.prisma, sessionToken) : null;
  const secure = options.baseUrl(request).startsWith('https:');
  const csrf = cookies[CSRF_COOKIE] ?? newCsrfToken();
  const setCookies = cookies[CSRF_COOKIE] ? [] : [serializeCookie(CSRF_COOKIE, csrf, { secure, sameSite: 'Strict' })];
  return { cookies, viewer, sessionToken, csrf, secure, setCookies };
}

export function mountOAuthRoutes(router: Router, options: OAuthRoutesOptions): void {
  const { prisma, sessionSecret } = options;
  const { throttle } = options;

  const pageState = (ctx: RequestContext) => pageSession(options, ctx.request);

  type State = Awaited<ReturnType<typeof pageState>>;

  const page = (state: State, status: number, html: string) => htmlResponse(status, html, {}, state.setCookies);

  async function loggedIn(state: State, account: Account, location: string): Promise<Response> {
    const token = newSessionToken();
    await createSession(prisma, account.id, token, SESSION_MAX_AGE_SECONDS);
    // a session that was open in this browser ends: the new one replaces it
    if (state.sessionToken) await endSession(prisma, state.sessionToken);
    const cookie = serializeCookie(SESSION_COOKIE, signSessionToken(sessionSecret, token), {
      secure: state.secure,
      maxAge: SESSION_MAX_AGE_SECONDS,
    });
    return redirectResponse(location, { 'set-cookie': [...state.setCookies, cookie] });
  }

  /** Form posts must carry the CSRF token of their page; otherwise nothing happens. */
  async function postedForm(ctx: RequestContext, state: State): Promise<URLSearchParams | null> {
    const form = await readForm(ctx.request);
    return csrfMatches(state.cookies[CSRF_COOKIE], form.get('csrf')) ? form : null;
  }

  const forbidden = (state: State) =>
    page(
      state,
      403,
      oauthErrorPage({
        csrf: state.csrf,
        viewer: state.viewer,
        error: 'csrf',
        description: 'The form expired or came from another site. Go back, reload the page and try again.',
      }),
    );

  const loginRedirect = (ctx: RequestContext) => redirectResponse(`/login?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`);

  router.get('/login', async (ctx) => {
    const state = await pageState(ctx);
    const next = safeNext(ctx.url.searchParams.get('next'));
    if (state.viewer) return redirectResponse(next ?? '/account');
    return page(state, 200, loginPage({ csrf: state.csrf, next }));
  });

  router.post('/login', async (ctx) => {
    const state = await pageState(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const username = (form.get('username') ?? '').trim();
    const next = safeNext(form.get('next'));
    const attempts = [
      [`${username.toLowerCase()}:${ctx.clientAddress}`, LOGIN_RULES.accountAddress],
      [ctx.clientAddress, LOGIN_RULES.address],
    ] as const;
    // reserved before the slow hash: forty attempts at once cannot all be tried
    const wait = await throttle.reserve(attempts);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60);
      return htmlResponse(
        429,
        loginPage({
          csrf: state.csrf,
          next,
          username,
          error: `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        }),
        {
          'retry-after': String(wait),
        },
      );
    }
    const account = await checkPassword(prisma, username, form.get('password') ?? '');
    if (!account)
      return page(state, 401, loginPage({ csrf: state.csrf, next, username, error: 'That username and password do not match.' }));
    await throttle.succeeded(attempts);
    return loggedIn(state, account, next ?? '/account');
  });

  router.get('/signup', async (ctx) => {
    const state = await pageState(ctx);
    return page(state, 200, signupPage({ csrf: state.csrf, next: safeNext(ctx.url.searchParams.get('next')) }));
  });

  router.post('/signup', async (ctx) => {
    const state = await pageState(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const next = safeNext(form.get('next'));
    const input = {
      username: form.get('username') ?? '',
      displayName: form.get('display_name') ?? '',
      password: form.get('password') ?? '',
    };
    try {
      const account = await createAccount(prisma, input);
      return loggedIn(state, account, next ?? '/account');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return page(
        state,
        422,
        signupPage({ csrf: state.csrf, next, username: input.username, displayName: input.displayName, issues: error.issues }),
      );
    }
  });

  router.post('/logout', async (ctx) => {
    const state = await pageState(ctx);
    if (!(await postedForm(ctx, state))) return forbidden(state);
    // ended in the database: a copy of the cookie taken before opens nothing afterwards
    if (state.sessionToken) await endSession(prisma, state.sessionToken);
    return redirectResponse('/login', { 'set-cookie': serializeCookie(SESSION_COOKIE, '', { secure: state.secure, maxAge: 0 }) });
  });

  /** The person's ten latest archive imports, as the account page lists them. */
  const importsOf = async (personId: number) =>
    (
      await prisma.importJob.findMany({
        where: { personId },
        orderBy: { id: 'desc' },
        take: 10,
        select: {
          id: true,
          fileName: true,
          status: true,
          total: true,
          processed: true,
          created: true,
          duplicates: true,
          skippedCount: true,
          skipped: true,
          error: true,
          createdAt: true,
        },
      })
    ).map((job) => ({ ...job, skipped: JSON.parse(job.skipped) as Array<{ item: string; reason: string }> }));

  /** The account page of `viewer`, with what a refused form says. */
  const accountView = async (
    state: State,
    viewer: NonNullable<State['viewer']>,
    said: { importError?: string; deleteError?: string; tokenError?: string; newToken?: { name: string; token: string } } = {},
  ) =>
    accountPage({
      csrf: state.csrf,
      viewer,
      authorizations: await authorizationsOf(prisma, viewer.id),
      personalTokens: await personalTokensOf(prisma, viewer.id),
      imports: await importsOf(viewer.id),
      ...said,
    });

  // personal access tokens: for the person's own scripts and for GraphiQL, shown once
  router.post('/account/tokens', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const name = form.get('name') ?? '';
    const expires = form.get('expires') ?? 'never';
    try {
      const token = await createPersonalToken(prisma, state.viewer.id, {
        name,
        scopes: form.getAll('scope'),
        days: expires === 'never' ? null : Number(expires),
      });
      return page(state, 201, await accountView(state, state.viewer, { newToken: { name: name.trim(), token } }));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const tokenError = error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return page(state, 422, await accountView(state, state.viewer, { tokenError }));
    }
  });
  router.post('/account/tokens/revoke', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const id = Number(form.get('id'));
    if (Number.isSafeInteger(id)) await revokePersonalToken(prisma, state.viewer.id, id);
    return redirectResponse('/account#tokens-heading');
  });

  router.get('/account', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    return page(state, 200, await accountView(state, state.viewer));
  });

  // an archive import: the zip is streamed to disk and imported by a background job
  router.post('/account/import', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) {
      if (ctx.request.body) void discardRest(ctx.request.body.getReader());
      return loginRedirect(ctx);
    }
    const viewer = state.viewer;
    const refused = async (status: number, importError: string, headers: Record<string, string> = {}) =>
      htmlResponse(status, await accountView(state, viewer, { importError }), headers);
    const unfinished = await prisma.importJob.count({ where: { personId: viewer.id, status: { in: ['queued', 'running'] } } });
    if (unfinished > 0) {
      if (ctx.request.body) void discardRest(ctx.request.body.getReader());
      return refused(429, 'archive: an import of yours is still running; start the next when it is done', { 'retry-after': '60' });
    }
    const received = await receiveArchive(ctx.request, importsDirectory(options.media.directory), (token) =>
      csrfMatches(state.cookies[CSRF_COOKIE], token),
    );
    if (!received.ok) return received.status === 403 ? forbidden(state) : refused(received.status, received.message);
    try {
      await queueArchiveImport({ prisma }, options.media, viewer.id, received.fileName, received.path);
    } catch (error) {
      // the check above raced another upload of theirs: the first one queued wins
      if (error instanceof ImportAlreadyQueuedError)
        return refused(429, 'archive: an import of yours is still running; start the next when it is done', { 'retry-after': '60' });
      throw error;
    }
    return redirectResponse('/account#import-heading');
  });

  router.post('/account/authorizations/revoke', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    await revokeAuthorization(prisma, state.viewer.id, form.get('client_id') ?? '').catch(() => 0);
    return redirectResponse('/account');
  });

  // a person's export reads everything they own: one at a time each, so that a script cannot run dozens at once
  const exporting = new Set<number>();
  router.get('/account/export', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const personId = state.viewer.id;
    if (exporting.has(personId)) {
      return htmlResponse(
        429,
        '<!doctype html><title>Export under way</title><p>Your export is already being written: wait for it to finish.</p>',
        {
          'retry-after': '30',
        },
      );
    }
    const zip = await accountExport(prisma, options.media, personId);
    if (!zip) return loginRedirect(ctx);
    exporting.add(personId);
    // done, failed, or the download abandoned: the stream closes in every case
    zip.outputStream.once('close', () => exporting.delete(personId));
    const day = new Date().toISOString().slice(0, 10);
    return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>, {
      status: 200,
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="milepost-${state.viewer.username}-${day}.zip"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  });

  router.post('/account/delete', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const viewer = state.viewer;
    const refused = async (status: number, deleteError: string, headers: Record<string, string> = {}) =>
      htmlResponse(status, await accountView(state, viewer, { deleteError }), headers);
    // the log-in's guessing limits: a session left open must not become a way to try passwords
    const attempts = [
      [`${viewer.username.toLowerCase()}:${ctx.clientAddress}`, LOGIN_RULES.accountAddress],
      [ctx.clientAddress, LOGIN_RULES.address],
    ] as const;
    const wait = await throttle.reserve(attempts);
    if (wait > 0) return refused(429, 'password: too many failed attempts; try again later', { 'retry-after': String(wait) });
    if (!(await checkPassword(prisma, viewer.username, form.get('password') ?? '')))
      return refused(422, 'password: is not your password; nothing was deleted');
    await throttle.succeeded(attempts);
    const deleted = await deleteAccount(prisma, viewer.id);
    await options.media.remove(deleted.unusedMedia);
    await removeImportFiles(options.media, deleted.importFiles);
    return htmlResponse(200, accountDeletedPage({ csrf: state.csrf, username: viewer.username }), {
      'set-cookie': serializeCookie(SESSION_COOKIE, '', { secure: state.secure, maxAge: 0 }),
    });
  });

  router.get('/developers/apps', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    return page(state, 200, developerPage({ csrf: state.csrf, viewer: state.viewer, apps: await appsOwnedBy(prisma, state.viewer.id) }));
  });

  router.post('/developers/apps', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const input = {
      name: form.get('name') ?? '',
      redirectUris: (form.get('redirect_uris') ?? '').split(/\r?\n/),
      confidential: form.get('client_type') !== 'public',
      allowImplicit: form.get('allow_implicit') === '1',
      allowPlainHttp: form.get('allow_plain_http') === '1',
      legacyTokens: form.get('legacy_tokens') === '1',
    };
    try {
      const created = await createApp(prisma, state.viewer.id, input);
      return page(
        state,
        201,
        developerPage({ csrf: state.csrf, viewer: state.viewer, apps: await appsOwnedBy(prisma, state.viewer.id), created }),
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return page(
        state,
        422,
        developerPage({
          csrf: state.csrf,
          viewer: state.viewer,
          apps: await appsOwnedBy(prisma, state.viewer.id),
          issues: error.issues,
          form: {
            name: input.name,
            redirectUris: form.get('redirect_uris') ?? '',
            confidential: input.confidential,
            allowImplicit: input.allowImplicit,
            allowPlainHttp: input.allowPlainHttp,
            legacyTokens: input.legacyTokens,
          },
        }),
      );
    }
  });

  router.post('/developers/apps/webhook', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const clientId = form.get('client_id') ?? '';
    try {
      const { secret } = await setWebhook(prisma, state.viewer.id, clientId, form.get('webhook_url'), {
        allowPrivate: options.webhooks.allowPrivate,
      });
      const apps = await appsOwnedBy(prisma, state.viewer.id);
      const app = apps.find((a) => a.clientId === clientId)!;
      return page(
        state,
        200,
        developerPage({ csrf: state.csrf, viewer: state.viewer, apps, ...(secret ? { webhookSecret: { app: app.name, secret } } : {}) }),
      );
    } catch (error) {
      if (error instanceof NotFoundError)
        return page(
          state,
          404,
          oauthErrorPage({
            csrf: state.csrf,
            viewer: state.viewer,
            error: 'not_found',
            description: 'You have no app with that client_id.',
          }),
        );
      if (!(error instanceof ValidationError)) throw error;
      return page(
        state,
        422,
        developerPage({ csrf: state.csrf, viewer: state.viewer, apps: await appsOwnedBy(prisma, state.viewer.id), issues: error.issues }),
      );
    }
  });

  router.get('/developers/apps/:clientId/deliveries', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    try {
      const log = await deliveriesOf(prisma, state.viewer.id, ctx.params.clientId!);
      const sent = Number(ctx.url.searchParams.get('sent'));
      return page(state, 200, deliveriesPage({ csrf: state.csrf, viewer: state.viewer, ...log, sent }));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      return page(
        state,
        404,
        oauthErrorPage({ csrf: state.csrf, viewer: state.viewer, error: 'not_found', description: 'You have no app with that client_id.' }),
      );
    }
  });

  /** A developer's action on an app's webhook: it sends at once and leads to the delivery log, which shows how it went. */
  const deliveryAction = (path: string, act: (owner: { ownerId: number; clientId: string }, ctx: RequestContext) => Promise<number>) =>
    router.post(path, async (ctx) => {
      const state = await pageState(ctx);
      if (!state.viewer) return loginRedirect(ctx);
      const form = await postedForm(ctx, state);
      if (!form) return forbidden(state);
      const owner = { ownerId: state.viewer.id, clientId: ctx.params.clientId! };
      try {
        const id = await act(owner, ctx);
        return redirectResponse(`/developers/apps/${encodeURIComponent(owner.clientId)}/deliveries?sent=${id}`);
      } catch (error) {
        if (error instanceof NotFoundError)
          return page(
            state,
            404,
            oauthErrorPage({
              csrf: state.csrf,
              viewer: state.viewer,
              error: 'not_found',
              description: 'You have no such app or delivery.',
            }),
          );
        if (!(error instanceof ValidationError)) throw error;
        const log = await deliveriesOf(prisma, owner.ownerId, owner.clientId);
        return page(state, 422, deliveriesPage({ csrf: state.csrf, viewer: state.viewer, ...log, issues: error.issues }));
      }
    });

  deliveryAction('/developers/apps/:clientId/deliveries/test', (owner) =>
    sendTestEvent(prisma, owner.ownerId, owner.clientId, options.webhooks),
  );

  deliveryAction('/developers/apps/:clientId/deliveries/:id/redeliver', (owner, ctx) => {
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id)) throw new NotFoundError('delivery', ctx.params.id!);
    return redeliver(prisma, owner, id, options.webhooks);
  });

  /** GET shows the consent page; POST carries the decision. Both re-check the whole request. */
  async function authorize(
    ctx: RequestContext,
    params: URLSearchParams,
    state: State,
    decision: string | null,
    chosen: readonly string[] | null = null,
  ): Promise<Response> {
    const check = await checkAuthorizeRequest(prisma, params);
    if (check.kind === 'error-page')
      return page(
        state,
        400,
        oauthErrorPage({ csrf: state.csrf, viewer: state.viewer, error: check.error, description: check.description }),
      );
    if (check.kind === 'error-redirect') return redirectResponse(check.location);
    if (!state.viewer) return loginRedirect(ctx);
    if (decision === null) {
      return page(
        state,
        200,
        consentPage({
          csrf: state.csrf,
          viewer: state.viewer,
          app: check.app,
          params,
          responseType: check.request.responseType,
          scopes: check.request.scopes,
        }),
      );
    }
    if (decision !== 'approve') return redirectResponse(denyAuthorization(check.request));
    // the person may grant less than the app asked, never more; a decision without the page's choices
    // (the page always sends `grant=read`) grants what was asked, as the page shows it ticked
    const granted = chosen === null ? check.request.scopes : narrowScopes(check.request.scopes, chosen);
    return redirectResponse(await approveAuthorization(prisma, check.request, check.app, state.viewer.id, granted));
  }

  router.get('/oauth/authorize', async (ctx) => authorize(ctx, ctx.url.searchParams, await pageState(ctx), null));

  router.post('/oauth/authorize', async (ctx) => {
    const state = await pageState(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const params = new URLSearchParams([...form.entries()].filter(([key]) => key !== 'csrf' && key !== 'decision' && key !== 'grant'));
    const chosen = form.getAll('grant');
    return authorize(ctx, params, state, form.get('decision') ?? 'deny', chosen.length > 0 ? chosen : null);
  });

  const endpoint = (result: EndpointResponse) => jsonResponse(result.status, result.body, result.headers);

  router.post('/oauth/token', async (ctx) => {
    const form = await readForm(ctx.request);
    const clientId = form.get('client_id') ?? ctx.url.searchParams.get('client_id') ?? '';
    // guessing codes, verifiers or secrets: attempts per app and address, then per address
    const attempts = [
      [`${clientId}:${ctx.clientAddress}`, TOKEN_RULES.clientAddress],
      [ctx.clientAddress, TOKEN_RULES.address],
    ] as const;
    const wait = await throttle.reserve(attempts);
    if (wait > 0) {
      return jsonResponse(
        429,
        { error: 'too_many_requests', error_description: `too many failed token requests; retry in ${wait} s` },
        { 'retry-after': String(wait), 'cache-control': 'no-store' },
      );
    }
    const result = await exchangeToken(
      prisma,
      { form, query: ctx.url.searchParams, authorization: ctx.request.headers.get('authorization') },
      options.tokenLifetimes,
    );
    if (result.status < 400) await throttle.succeeded(attempts);
    return endpoint(result);
  });

  router.post('/oauth/revoke', async (ctx) =>
    endpoint(
      await revokeAccessToken(prisma, { form: await readForm(ctx.request), authorization: ctx.request.headers.get('authorization') }),
    ),
  );

  router.post('/oauth/introspect', async (ctx) =>
    endpoint(await introspect(prisma, { form: await readForm(ctx.request), authorization: ctx.request.headers.get('authorization') })),
  );

  router.get('/.well-known/oauth-authorization-server', (ctx) =>
    jsonResponse(200, authorizationServerMetadata(options.baseUrl(ctx.request))),
  );
}
