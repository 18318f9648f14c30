// The authorization server's endpoints: authorize (with its consent page), token, revoke,
// introspection, and its metadata. The flow rules are authorization.ts's.

import { type GuessThrottle, TOKEN_RULES } from '../auth/throttle.ts';
import type { TokenLifetimes } from '../db/oauth-tokens.ts';
import { narrowScopes } from '../domain/scopes.ts';
import { jsonResponse, type RequestContext, type Router, readForm, redirectResponse } from '../http/router.ts';
import { type PageOptions, type PageState, pageKit } from '../pages/kit.ts';
import { problemPage } from '../pages/layout.ts';
import {
  approveAuthorization,
  authorizationServerMetadata,
  checkAuthorizeRequest,
  denyAuthorization,
  type EndpointResponse,
  exchangeToken,
  introspect,
  revokeAccessToken,
} from './authorization.ts';
import { consentPage } from './pages.ts';

export interface OAuthRoutesOptions extends PageOptions {
  /** Guessing limits for /oauth/token, counted where the rate limit is (memory or Redis). */
  throttle: GuessThrottle;
  /** How long an app's tokens work (a legacy app's never expire). */
  tokenLifetimes: TokenLifetimes;
}

export function mountOAuthRoutes(router: Router, options: OAuthRoutesOptions): void {
  mountAuthorizeRoutes(router, options);
  mountTokenEndpoints(router, options);
}

type Kit = ReturnType<typeof pageKit>;
type State = PageState;

/** GET shows the consent page; POST carries the decision. Both re-check the whole request. */
async function authorize(
  { page, loginRedirect }: Kit,
  prisma: OAuthRoutesOptions['prisma'],
  ctx: RequestContext,
  request: { params: URLSearchParams; state: State; decision: string | null; chosen?: readonly string[] | null },
): Promise<Response> {
  const { params, state, decision, chosen = null } = request;
  const check = await checkAuthorizeRequest(prisma, params);
  if (check.kind === 'error-page')
    return page(state, 400, problemPage({ csrf: state.csrf, viewer: state.viewer, error: check.error, description: check.description }));
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

/** The authorization endpoint: the consent page and the person's decision. */
function mountAuthorizeRoutes(router: Router, options: OAuthRoutesOptions): void {
  const kit = pageKit(options);
  const { pageState, postedForm, forbidden } = kit;
  router.get('/oauth/authorize', async (ctx) =>
    authorize(kit, options.prisma, ctx, { params: ctx.url.searchParams, state: await pageState(ctx), decision: null }),
  );

  router.post('/oauth/authorize', async (ctx) => {
    const state = await pageState(ctx);
    const form = await postedForm(ctx, state);
    if (!form) return forbidden(state);
    const params = new URLSearchParams([...form.entries()].filter(([key]) => key !== 'csrf' && key !== 'decision' && key !== 'grant'));
    const chosen = form.getAll('grant');
    return authorize(kit, options.prisma, ctx, {
      params,
      state,
      decision: form.get('decision') ?? 'deny',
      chosen: chosen.length > 0 ? chosen : null,
    });
  });
}

/** The endpoints apps call: token, revoke, introspection, and the metadata that names them. */
function mountTokenEndpoints(router: Router, options: OAuthRoutesOptions): void {
  const { prisma, throttle } = options;
  const endpoint = (result: EndpointResponse) => jsonResponse(result.status, result.body, result.headers);

  router.post('/oauth/token', async (ctx) => {
    const form = await readForm(ctx);
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
    endpoint(await revokeAccessToken(prisma, { form: await readForm(ctx), authorization: ctx.request.headers.get('authorization') })),
  );

  router.post('/oauth/introspect', async (ctx) =>
    endpoint(await introspect(prisma, { form: await readForm(ctx), authorization: ctx.request.headers.get('authorization') })),
  );

  router.get('/.well-known/oauth-authorization-server', (ctx) =>
    jsonResponse(200, authorizationServerMetadata(options.baseUrl(ctx.request))),
  );
}
