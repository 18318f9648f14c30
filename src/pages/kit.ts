// What every server-rendered page of an account or of the authorization server needs: the person logged
// in (if any), the CSRF token of their forms, and the answers a page gives to a stranger or a forged form.
import {
  CSRF_COOKIE,
  csrfMatches,
  newCsrfToken,
  parseCookies,
  readSessionToken,
  SESSION_COOKIE,
  serializeCookie,
} from '../auth/session.ts';
import { type Account, accountOfSession } from '../db/account-sessions.ts';
import type { Prisma } from '../db/database.ts';
import type { Markup } from '../http/html.ts';
import { htmlResponse, type RequestContext, readForm, redirectResponse } from '../http/router.ts';
import { problemPage } from './layout.ts';

export interface PageOptions {
  prisma: Prisma;
  sessionSecret: string;
  baseUrl: (request: Request) => string;
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
export async function pageSession(options: PageOptions, request: Request) {
  const cookies = parseCookies(request.headers.get('cookie'));
  const sessionToken = readSessionToken(options.sessionSecret, cookies[SESSION_COOKIE]);
  const viewer: Account | null = sessionToken ? await accountOfSession(options.prisma, sessionToken) : null;
  const secure = options.baseUrl(request).startsWith('https:');
  const csrf = cookies[CSRF_COOKIE] ?? newCsrfToken();
  const setCookies = cookies[CSRF_COOKIE] ? [] : [serializeCookie(CSRF_COOKIE, csrf, { secure, sameSite: 'Strict' })];
  return { cookies, viewer, sessionToken, csrf, secure, setCookies };
}

export type PageState = Awaited<ReturnType<typeof pageSession>>;

/** The helpers of a set of pages: their state, their answers, and their forms' CSRF check. */
export function pageKit(options: PageOptions) {
  const pageState = (ctx: RequestContext) => pageSession(options, ctx.request);

  const page = (state: PageState, status: number, body: Markup) => htmlResponse(status, body, {}, state.setCookies);

  /** Form posts must carry the CSRF token of their page; otherwise nothing happens. */
  async function postedForm(ctx: RequestContext, state: PageState): Promise<URLSearchParams | null> {
    const form = await readForm(ctx);
    return csrfMatches(state.cookies[CSRF_COOKIE], form.get('csrf')) ? form : null;
  }

  const forbidden = (state: PageState) =>
    page(
      state,
      403,
      problemPage({
        csrf: state.csrf,
        viewer: state.viewer,
        error: 'csrf',
        description: 'The form expired or came from another site. Go back, reload the page and try again.',
      }),
    );

  /** A 404 page saying what the person has none of. */
  const notFound = (state: PageState, description: string) =>
    page(state, 404, problemPage({ csrf: state.csrf, viewer: state.viewer, error: 'not_found', description }));

  const loginRedirect = (ctx: RequestContext) => redirectResponse(`/login?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`);

  return { pageState, page, postedForm, forbidden, notFound, loginRedirect };
}
