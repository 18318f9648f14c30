// The people-facing pages, at the same paths as the data they show: a browser asking for HTML at
// /entries/42 gets the page, an app gets JSON (server.ts decides by the Accept header).
import type { ExecutionResult } from 'graphql';
import { ACTIVITY_TYPES, SPEC_ACTIVITY_TYPES } from '../domain/activity.ts';
import { TYPED_ERRORS } from '../domain/errors.ts';
import type { Context } from '../graphql/context.ts';
import type { Markup } from '../http/html.ts';
import { htmlResponse, type Router } from '../http/router.ts';
import {
  type ActivityType,
  PageEntryDetailDocument,
  PageFeedDocument,
  PagePersonDetailDocument,
  PagePersonStatsDocument,
  PageRouteDocument,
} from '../operations/generated.ts';
import type { RunOperation } from '../rest/execute.ts';
import { positiveId } from '../rest/params.ts';
import {
  entryPage,
  feedPage,
  notFoundPage,
  type PageEntry,
  personPage,
  routePage,
  type StatsFilter,
  statsPage,
  type Visitor,
} from './pages.ts';

export interface WebOptions {
  run: RunOperation;
  /** The context of an anonymous reader: the pages show what everyone may see. */
  context: (request: Request) => Context;
  /** Who is logged in (for the header), and the cookies a first visit gets. */
  session: (request: Request) => Promise<Visitor & { setCookies: string[] }>;
}

const HEADERS = {
  // avatars may live anywhere on the web; nothing else is loaded, and no script at all
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'",
  'cache-control': 'no-cache',
  vary: 'Accept',
};

function pageNumber(url: URL): number {
  const page = Number(url.searchParams.get('page') ?? 1);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

/** `?period=week|month|year&activity=running` as the stats page reads it; anything else is the default. */
function statsFilter(url: URL): StatsFilter {
  const period = url.searchParams.get('period')?.toUpperCase();
  const activity = url.searchParams.get('activity')?.toLowerCase();
  return {
    period: period === 'MONTH' || period === 'YEAR' ? period : 'WEEK',
    activityType: ACTIVITY_TYPES.find((type) => type === activity)?.toUpperCase() ?? null,
  };
}

/** The data; a typed failure (a stream's person who does not exist) leaves its field null, anything else fails the page. */
function dataOf<T>(result: ExecutionResult<T>): T {
  const unexpected = result.errors?.find((error) => !TYPED_ERRORS.has(String(error.extensions?.type)));
  if (unexpected || !result.data) throw new Error(`page operation failed: ${(unexpected ?? result.errors?.[0])?.message}`);
  return result.data;
}

/** The entries of a stream's answer (none when it was refused). */
type Stream = { edges: Array<{ node: PageEntry }>; pageInfo: { hasNextPage: boolean } } | null | undefined;

export function mountWebPages(router: Router, options: WebOptions): void {
  const { run } = options;

  /** A page for this visitor: `render` gets who is looking and answers the status and the HTML. */
  const respond = async (request: Request, render: (visitor: Visitor) => Promise<[number, Markup]>) => {
    const session = await options.session(request);
    const [status, html] = await render(session);
    return htmlResponse(status, html, HEADERS, session.setCookies);
  };

  router.get('/', ({ request, url }) =>
    respond(request, async (visitor) => {
      const page = pageNumber(url);
      const stream: Stream = dataOf(await run(PageFeedDocument, request, options.context(request), { page })).stream;
      return [200, feedPage(visitor, stream?.edges.map((edge) => edge.node) ?? [], page, stream?.pageInfo.hasNextPage ?? false)];
    }),
  );

  router.get('/entries/:id', ({ request, params }) =>
    respond(request, async (visitor) => {
      const id = positiveId(params.id);
      if (id === null) return [404, notFoundPage(visitor, `Entry ${params.id}`)];
      const { entry } = dataOf(await run(PageEntryDetailDocument, request, options.context(request), { id }));
      return entry ? [200, entryPage(visitor, entry)] : [404, notFoundPage(visitor, `Entry ${id}`)];
    }),
  );

  router.get('/people/:username', ({ request, url, params }) =>
    respond(request, async (visitor) => {
      const page = pageNumber(url);
      const data = dataOf(await run(PagePersonDetailDocument, request, options.context(request), { username: params.username, page }));
      const stream: Stream = data.stream;
      if (!data.person) return [404, notFoundPage(visitor, `Nobody called ${params.username}`)];
      return [
        200,
        personPage(visitor, data.person, stream?.edges.map((edge) => edge.node) ?? [], page, stream?.pageInfo.hasNextPage ?? false),
      ];
    }),
  );

  router.get('/people/:username/stats', ({ request, url, params }) =>
    respond(request, async (visitor) => {
      const filter = statsFilter(url);
      const variables = { username: params.username, period: filter.period, activityType: filter.activityType as ActivityType | null };
      const { person } = dataOf(await run(PagePersonStatsDocument, request, options.context(request), variables));
      if (!person) return [404, notFoundPage(visitor, `Nobody called ${params.username}`)];
      const types = SPEC_ACTIVITY_TYPES.map((type) => type.toUpperCase());
      if (filter.activityType && !types.includes(filter.activityType)) types.push(filter.activityType);
      return [200, statsPage(visitor, person, filter, types)];
    }),
  );

  router.get('/routes/:id', ({ request, params }) =>
    respond(request, async (visitor) => {
      const id = positiveId(params.id);
      if (id === null) return [404, notFoundPage(visitor, `Route ${params.id}`)];
      const { route } = dataOf(await run(PageRouteDocument, request, options.context(request), { id }));
      return route ? [200, routePage(visitor, route)] : [404, notFoundPage(visitor, `Route ${id}`)];
    }),
  );
}
