// The athlete's account on the web: sign-up, log-in and log-out, the account page (authorized apps,
// personal access tokens, export, archive import, deletion), and the developer pages (apps, webhooks,
// deliveries). Every form post carries its page's CSRF token; data access is src/db/'s.
import { Readable } from 'node:stream';
import {
  CSRF_COOKIE,
  csrfMatches,
  newSessionToken,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  serializeCookie,
  signSessionToken,
} from '../auth/session.ts';
import { type GuessThrottle, LOGIN_RULES } from '../auth/throttle.ts';
import { accountExport } from '../db/account-export.ts';
import { type Account, checkPassword, createAccount, createSession, endSession } from '../db/account-sessions.ts';
import { deleteAccount } from '../db/accounts.ts';
import { recentImports, unfinishedImports } from '../db/imports.ts';
import { appsOwnedBy, registerApp } from '../db/oauth-clients.ts';
import { authorizationsOf, createPersonalToken, personalTokensOf, revokeAuthorization, revokePersonalToken } from '../db/oauth-tokens.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { unitsForLanguage } from '../domain/units.ts';
import { receiveArchive } from '../http/archive-upload.ts';
import { discardRest } from '../http/body.ts';
import { html } from '../http/html.ts';
import { htmlResponse, type RequestContext, type Router, redirectResponse } from '../http/router.ts';
import { ImportAlreadyQueuedError, importsDirectory, queueArchiveImport, removeImportFiles } from '../imports/jobs.ts';
import type { MediaStore } from '../media/store.ts';
import { type PageOptions, type PageState, pageKit, safeNext } from '../pages/kit.ts';
import { layout } from '../pages/layout.ts';
import { type DeliveryOptions, redeliver, sendTestEvent } from '../webhooks/deliveries.ts';
import { deliveriesOf, setWebhook } from '../webhooks/settings.ts';
import { accountDeletedPage, accountPage, deliveriesPage, developerPage, loginPage, signupPage } from './pages.ts';

export interface AccountRoutesOptions extends PageOptions {
  /** Guessing limits for /login and account deletion, counted where the rate limit is (memory or Redis). */
  throttle: GuessThrottle;
  /** How the developer page's test events and redeliveries are sent (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_RETRY_BASE_SECONDS). */
  webhooks: DeliveryOptions;
  /** Where photos are kept: a deleted account's go with it. */
  media: MediaStore;
}

/** What the account's routes share: the page kit and the options. */
type Kit = ReturnType<typeof pageKit> & { options: AccountRoutesOptions };
type State = PageState;

export function mountAccountRoutes(router: Router, options: AccountRoutesOptions): void {
  const kit: Kit = { ...pageKit(options), options };
  mountSessionRoutes(router, kit);
  mountAccountPageRoutes(router, kit);
  mountAccountDataRoutes(router, kit);
  mountDeveloperRoutes(router, kit);
  mountWebhookRoutes(router, kit);
  mountAccountDeletion(router, kit);
}

/** Starts a session for `account` in this browser, and leads to `location`. */
async function loggedIn({ options }: Kit, state: State, account: Account, location: string): Promise<Response> {
  const { prisma, sessionSecret } = options;
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

/** The account page of `viewer`, with what a refused form says. */
async function accountView(
  { options }: Kit,
  state: State,
  viewer: NonNullable<State['viewer']>,
  said: { importError?: string; deleteError?: string; tokenError?: string; newToken?: { name: string; token: string } } = {},
) {
  return accountPage({
    csrf: state.csrf,
    viewer,
    authorizations: await authorizationsOf(options.prisma, viewer.id),
    personalTokens: await personalTokensOf(options.prisma, viewer.id),
    imports: await recentImports(options.prisma, viewer.id),
    ...said,
  });
}

/** A log-in form posted: the password checked, under the guessing throttle (reserved before the slow hash). */
async function logIn(kit: Kit, ctx: RequestContext): Promise<Response> {
  const { pageState, page, postedForm, forbidden, options } = kit;
  const { prisma, throttle } = options;
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
  if (!account) return page(state, 401, loginPage({ csrf: state.csrf, next, username, error: 'That username and password do not match.' }));
  await throttle.succeeded(attempts);
  return loggedIn(kit, state, account, next ?? '/');
}

/** Log-in, sign-up and log-out. */
function mountSessionRoutes(router: Router, kit: Kit): void {
  const { pageState, page, postedForm, forbidden, options } = kit;
  const { prisma } = options;
  router.get('/login', async (ctx) => {
    const state = await pageState(ctx);
    const next = safeNext(ctx.url.searchParams.get('next'));
    if (state.viewer) return redirectResponse(next ?? '/');
    return page(state, 200, loginPage({ csrf: state.csrf, next }));
  });

  router.post('/login', (ctx) => logIn(kit, ctx));

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
      // distances read as the browser's language suggests, until the athlete chooses in the settings
      units: unitsForLanguage(ctx.request.headers.get('accept-language')),
    };
    try {
      const account = await createAccount(prisma, input);
      return loggedIn(kit, state, account, next ?? '/');
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
}

/** The account page, and its personal access tokens. */
function mountAccountPageRoutes(router: Router, kit: Kit): void {
  const { pageState, page, postedForm, forbidden, loginRedirect, options } = kit;
  const { prisma } = options;
  router.post('/account/authorizations/revoke', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    await revokeAuthorization(prisma, state.viewer.id, form.get('client_id') ?? '').catch(() => 0);
    return redirectResponse('/account');
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
      return page(state, 201, await accountView(kit, state, state.viewer, { newToken: { name: name.trim(), token } }));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const tokenError = error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return page(state, 422, await accountView(kit, state, state.viewer, { tokenError }));
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
    return page(state, 200, await accountView(kit, state, state.viewer));
  });
}

/** What a person brings in (an archive) and takes away (an export). */
function mountAccountDataRoutes(router: Router, kit: Kit): void {
  const { pageState, forbidden, loginRedirect, options } = kit;
  const { prisma } = options;

  // an archive import: the zip is streamed to disk and imported by a background job
  router.post('/account/import', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) {
      if (ctx.request.body) void discardRest(ctx.request.body.getReader());
      return loginRedirect(ctx);
    }
    const viewer = state.viewer;
    const refused = async (status: number, importError: string, headers: Record<string, string> = {}) =>
      htmlResponse(status, await accountView(kit, state, viewer, { importError }), headers);
    const unfinished = await unfinishedImports(prisma, viewer.id);
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

  // a person's export reads everything they own: one at a time each, so that a script cannot run dozens at once
  const exporting = new Set<number>();
  router.get('/account/export', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const personId = state.viewer.id;
    if (exporting.has(personId)) {
      return htmlResponse(
        429,
        layout(
          'Export under way',
          html`<p class="card">Your export is already being written: wait for it to finish.</p>`,
          state.viewer,
          state.csrf,
        ),
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
}

/** The developer pages: registering apps and listing them. */
function mountDeveloperRoutes(router: Router, kit: Kit): void {
  const { pageState, page, postedForm, forbidden, loginRedirect, options } = kit;
  const { prisma } = options;
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
      const created = await registerApp(prisma, state.viewer.id, input);
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
}

/** An app's webhook: its URL, the delivery log, test events and redeliveries. */
function mountWebhookRoutes(router: Router, kit: Kit): void {
  const { pageState, page, postedForm, forbidden, notFound, loginRedirect, options } = kit;
  const { prisma } = options;
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
      if (error instanceof NotFoundError) return notFound(state, 'You have no app with that client_id.');
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
      return notFound(state, 'You have no app with that client_id.');
    }
  });

  deliveryAction(router, kit, '/developers/apps/:clientId/deliveries/test', (owner) =>
    sendTestEvent(prisma, owner.ownerId, owner.clientId, options.webhooks),
  );

  deliveryAction(router, kit, '/developers/apps/:clientId/deliveries/:id/redeliver', (owner, ctx) => {
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id)) throw new NotFoundError('delivery', ctx.params.id!);
    return redeliver(prisma, owner, id, options.webhooks);
  });
}

/** Deleting the account, with the password. */
function mountAccountDeletion(router: Router, kit: Kit): void {
  const { pageState, postedForm, forbidden, loginRedirect, options } = kit;
  const { prisma, throttle } = options;
  router.post('/account/delete', async (ctx) => {
    const state = await pageState(ctx);
    if (!state.viewer) return loginRedirect(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const viewer = state.viewer;
    const refused = async (status: number, deleteError: string, headers: Record<string, string> = {}) =>
      htmlResponse(status, await accountView(kit, state, viewer, { deleteError }), headers);
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
}

/** A developer's action on an app's webhook: it sends at once and leads to the delivery log, which shows how it went. */
function deliveryAction(
  router: Router,
  { pageState, page, postedForm, forbidden, notFound, loginRedirect, options }: Kit,
  path: string,
  act: (owner: { ownerId: number; clientId: string }, ctx: RequestContext) => Promise<number>,
): void {
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
      if (error instanceof NotFoundError) return notFound(state, 'You have no such app or delivery.');
      if (!(error instanceof ValidationError)) throw error;
      const log = await deliveriesOf(options.prisma, owner.ownerId, owner.clientId);
      return page(state, 422, deliveriesPage({ csrf: state.csrf, viewer: state.viewer, ...log, issues: error.issues }));
    }
  });
}
