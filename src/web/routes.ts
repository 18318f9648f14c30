// The people-facing pages, at the same paths as the data they show: a browser asking for HTML at
// /entries/42 gets the page, an app gets JSON (dispatch.ts decides by the Accept header). A page reads
// as the athlete logged in, if any (their friends-only entries, their own), else as anyone.
import type { ExecutionResult } from 'graphql';
import { sessionViewer, type Viewer } from '../auth/viewer.ts';
import { ACTIVITY_TYPES, SPEC_ACTIVITY_TYPES } from '../domain/activity.ts';
import { type FieldIssue, TYPED_ERRORS } from '../domain/errors.ts';
import type { Context } from '../graphql/context.ts';
import { html, type Markup } from '../http/html.ts';
import { htmlResponse, type Router } from '../http/router.ts';
import {
  type ActivityType,
  PageBellDocument,
  PageEntryDetailDocument,
  PageFediverseStreamDocument,
  PageFeedDocument,
  PageGearDocument,
  PageNearbyDocument,
  PageNotificationsDocument,
  PagePersonDetailDocument,
  PagePersonStatsDocument,
  PageReportsDocument,
  PageRouteDocument,
  PageSearchDocument,
} from '../operations/generated.ts';
import type { PageState } from '../pages/kit.ts';
import type { RunOperation } from '../rest/execute.ts';
import { positiveId } from '../rest/params.ts';
import { seeOther } from './form-outcome.ts';
import { composeForm } from './forms.ts';
import {
  entryPage,
  fediverseStreamPage,
  feedPage,
  gearPage,
  layoutPage,
  moderationPage,
  nearbyPage,
  notFoundPage,
  notice,
  notificationsPage,
  type PageEntry,
  personPage,
  routePage,
  type StatsFilter,
  searchPage,
  statsPage,
  suggestionsCard,
  type Visitor,
} from './pages.ts';
import type { UnitSystem } from './units.ts';

export interface WebOptions {
  run: RunOperation;
  /** The context a page reads in: the logged-in athlete's, or anyone's. */
  context: (request: Request, viewer: Viewer | null) => Context;
  /** Who is logged in, their CSRF token, and the cookies a first visit gets. */
  session: (request: Request) => Promise<PageState>;
  /** The tiles maps are drawn on (config.mapTiles). */
  tiles: { url: string; attribution: string };
}

/**
 * What a page may load: its own scripts and styles (the maps'), pictures from here, avatars from anywhere
 * on the web (https), and the map tiles from their server; nothing else, and no inline script.
 */
export function pageHeaders(tiles: { url: string }) {
  const tileOrigin = new URL(tiles.url.replace(/\{[a-z]\}/g, '0')).origin;
  return {
    'content-security-policy': `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: ${tileOrigin}; frame-ancestors 'none'`,
    vary: 'Accept',
  };
}

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
export function pageData<T>(result: ExecutionResult<T>): T {
  const unexpected = result.errors?.find((error) => !TYPED_ERRORS.has(String(error.extensions?.type)));
  // the database away: thrown as it is, so that the edge answers 503 with a page saying so
  const unavailable = result.errors?.find((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE');
  if (unavailable) throw unavailable;
  if (unexpected || !result.data) throw new Error(`page operation failed: ${(unexpected ?? result.errors?.[0])?.message}`);
  return result.data;
}

/** A page saying what could not be done, in the visitor's words. */
export function problemPage(read: PageRead, title: string, description: string): Markup {
  return layoutPage(read.visitor(), title, html`<p class="card error" role="alert">${description}</p>`);
}

/** The first of an answer's refusals (a typed ValidationError) that names one of `fields`' arguments, or null. */
function refusedArgument(result: ExecutionResult, fields: readonly string[]): string | null {
  for (const error of result.errors ?? []) {
    if (error.extensions?.type !== 'ValidationError' || !fields.includes(String(error.path?.at(-1)))) continue;
    const issues = (error.extensions.issues ?? []) as FieldIssue[];
    return issues.map((issue) => `${issue.path} ${issue.message}`).join('; ') || error.message;
  }
  return null;
}

/** The entries of a stream's answer (none when it was refused). */
type Stream = { edges: Array<{ node: PageEntry }>; pageInfo: { hasNextPage: boolean } } | null | undefined;
const feedOf = (stream: Stream, page: number) => ({
  entries: stream?.edges.map((edge) => edge.node) ?? [],
  page,
  hasNext: stream?.pageInfo.hasNextPage ?? false,
});

/** What a page's render is handed: who is looking, the context to read in, and the visitor once the reader's units are known. */
export interface PageRead {
  session: PageState;
  context: Context;
  visitor: (reader?: { units: string } | null) => Visitor;
}

/**
 * A page read as the session's athlete; its answer is private to them, and never kept by a shared cache.
 * `render` answers the status and the page, or a response of its own (a redirect).
 */
export function pageReader(options: WebOptions) {
  const headers = pageHeaders(options.tiles);
  return async (request: Request, render: (read: PageRead) => Promise<[number, Markup] | Response>): Promise<Response> => {
    const session = await options.session(request);
    const context = options.context(request, session.viewer ? sessionViewer(session.viewer) : null);
    // the bell's number, for an athlete logged in reading a page (a form's post leads on, mostly)
    const unread =
      session.viewer && request.method === 'GET'
        ? (pageData(await options.run(PageBellDocument, request, context)).unreadNotificationCount ?? 0)
        : 0;
    const viewer = session.viewer && { ...session.viewer, unread };
    const visitor = (reader?: { units: string } | null): Visitor => ({
      viewer,
      csrf: session.csrf,
      units: (reader?.units === 'MILES' ? 'MILES' : 'KILOMETERS') satisfies UnitSystem,
      tiles: options.tiles,
    });
    const rendered = await render({ session, context, visitor });
    if (rendered instanceof Response) {
      for (const cookie of session.setCookies) rendered.headers.append('set-cookie', cookie);
      return rendered;
    }
    const [status, body] = rendered;
    const caching = { 'cache-control': session.viewer ? 'private, no-cache' : 'no-cache' };
    return htmlResponse(status, body, { ...headers, ...caching }, session.setCookies);
  };
}

/** Recent entries near the point of `?lat=…&lon=…&radius=…` (the radius in the reader's units), or the form to choose one. */
async function nearby(run: RunOperation, request: Request, url: URL, { context, visitor }: PageRead): Promise<[number, Markup]> {
  const [lat, lon] = ['lat', 'lon'].map((name) => url.searchParams.get(name));
  if (!lat && !lon) return [200, nearbyPage(visitor(), null, null)];
  const read = visitor();
  const radius = Number(url.searchParams.get('radius') ?? 25);
  const query = { lat: Number(lat), lon: Number(lon), radius: Number.isFinite(radius) && radius > 0 ? Math.min(radius, 500) : 25 };
  const issues = [
    ...(Number.isFinite(query.lat) && lat !== '' && Math.abs(query.lat) <= 90
      ? []
      : [{ path: 'lat', message: 'is a latitude from -90 to 90' }]),
    ...(Number.isFinite(query.lon) && lon !== '' && Math.abs(query.lon) <= 180
      ? []
      : [{ path: 'lon', message: 'is a longitude from -180 to 180' }]),
  ];
  if (issues.length) return [422, nearbyPage(read, null, null, issues)];
  // the API's radius is in miles
  const miles = read.units === 'MILES' ? query.radius : query.radius / 1.609344;
  const page = pageNumber(url);
  const data = pageData(await run(PageNearbyDocument, request, context, { lat: query.lat, lon: query.lon, radius: miles, page }));
  return [200, nearbyPage(visitor(data.reader), query, feedOf(data.stream, page))];
}

/** People and entries matching `?q=…`, or the form alone; a query the API refuses is said, above the form. */
async function search(run: RunOperation, request: Request, url: URL, { context, visitor }: PageRead): Promise<[number, Markup]> {
  const query = (url.searchParams.get('q') ?? '').slice(0, 1000);
  if (!query.trim()) return [200, searchPage(visitor(), '', null)];
  const page = pageNumber(url);
  const result = await run(PageSearchDocument, request, context, { query, page });
  const data = pageData(result);
  const refused = result.errors?.find((error) => error.extensions?.type === 'ValidationError');
  if (refused || !data.people || !data.entries) {
    const issues = (refused?.extensions?.issues as FieldIssue[] | undefined) ?? [{ path: 'q', message: 'could not be searched' }];
    return [422, searchPage(visitor(data.reader), query, null, issues)];
  }
  const people = data.people.edges.map((edge) => edge.node);
  return [200, searchPage(visitor(data.reader), query, { people, peopleCount: data.people.totalCount, feed: feedOf(data.entries, page) })];
}

/** The home page: the stream (the athlete's feed once logged in), with the compose form and suggestions. */
async function home(run: RunOperation, request: Request, url: URL, { context, visitor, session }: PageRead): Promise<[number, Markup]> {
  const page = pageNumber(url);
  const data = pageData(await run(PageFeedDocument, request, context, { page, loggedIn: session.viewer !== null && page === 1 }));
  const compose = data.reader
    ? composeForm(session.csrf, {
        visibility: data.reader.defaultVisibility ?? 'EVERYONE',
        units: data.reader.units,
        timeZone: data.reader.timeZone,
        gear: data.reader.gear,
      })
    : null;
  const suggestions = data.suggestions?.length ? suggestionsCard(session.csrf, data.suggestions) : null;
  return [200, feedPage(visitor(data.reader), feedOf(data.stream, page), compose, null, suggestions)];
}

/** A piece of gear's page: what it is, its totals and the workouts done in it that the visitor may see. */
async function gearRoute(
  run: RunOperation,
  request: Request,
  url: URL,
  param: string | undefined,
  read: PageRead,
): Promise<[number, Markup]> {
  const id = positiveId(param);
  if (id === null) return [404, notFoundPage(read.visitor(), `Gear ${param}`)];
  const page = pageNumber(url);
  const { gear, reader } = pageData(await run(PageGearDocument, request, read.context, { id, page }));
  if (!gear) return [404, notFoundPage(read.visitor(reader), `Gear ${id}`)];
  const status = url.searchParams.has('saved') ? notice('Your gear is saved.') : null;
  return [200, gearPage(read.visitor(reader), gear, feedOf(gear.workouts, page), undefined, status)];
}

/** The moderators' queue of reports; a page that is not there to anyone else. */
async function moderation(
  run: RunOperation,
  request: Request,
  { context, visitor, session }: PageRead,
): Promise<[number, Markup] | Response> {
  if (!session.viewer) return seeOther('/login?next=%2Fmoderation');
  const data = pageData(await run(PageReportsDocument, request, context));
  if (!data.reports) return [404, notFoundPage(visitor(data.reader), 'Moderation')];
  return [
    200,
    moderationPage(
      visitor(data.reader),
      data.reports.edges.map((e) => e.node),
      data.reports.totalCount,
      null,
    ),
  ];
}

/** The athlete's notifications, with the kinds they hear of and their mail settings. */
async function notifications(
  run: RunOperation,
  request: Request,
  url: URL,
  { context, visitor, session }: PageRead,
): Promise<[number, Markup] | Response> {
  if (!session.viewer) return seeOther('/login?next=%2Fnotifications');
  const data = pageData(await run(PageNotificationsDocument, request, context));
  const saved = url.searchParams.get('saved') === 'kinds' ? notice('Saved: you hear of the kinds ticked.') : null;
  const shown = data.notifications?.edges.map((e) => e.node) ?? [];
  return [200, notificationsPage(visitor(data.reader), shown, data.notificationPreferences ?? [], saved, data.emailSettings)];
}

/** The posts of the remote accounts the athlete follows (docs/FEDERATION.md). */
async function fediverseStream(
  run: RunOperation,
  request: Request,
  { context, visitor, session }: PageRead,
): Promise<[number, Markup] | Response> {
  if (!session.viewer) return seeOther('/login?next=%2Ffediverse');
  const data = pageData(await run(PageFediverseStreamDocument, request, context));
  if (!data.fediverse.host) return [404, notFoundPage(visitor(data.reader), 'The fediverse')];
  return [200, fediverseStreamPage(visitor(data.reader), data.fediverseStream)];
}

/** Mounts the pages; answers the page a browser gets for a path that leads nowhere. */
export function mountWebPages(router: Router, options: WebOptions): (request: Request) => Promise<Response> {
  const { run } = options;
  const respond = pageReader(options);

  router.get('/', ({ request, url }) => respond(request, (read) => home(run, request, url, read)));

  router.get('/entries/:id', ({ request, params, url }) =>
    respond(request, async (read) => {
      const { context, visitor } = read;
      const id = positiveId(params.id);
      if (id === null) return [404, notFoundPage(visitor(), `Entry ${params.id}`)];
      // the older comments' link carries the cursor of the first one shown
      const commentsBefore = url.searchParams.get('comments_before')?.slice(0, 200) || null;
      const result = await run(PageEntryDetailDocument, request, context, { id, commentsBefore });
      const refused = refusedArgument(result, ['comments']);
      if (refused) return [400, problemPage(read, 'This link does not work', `comments_before: ${refused.replace(/^before /, '')}.`)];
      const { entry, reader } = pageData(result);
      const status = url.searchParams.get('reported') === '1' ? notice('Reported: the moderators will look at it. Thank you.') : null;
      return entry
        ? [200, entryPage(visitor(reader), entry, { ownZones: reader?.privacyZones, gear: reader?.gear, status })]
        : [404, notFoundPage(visitor(reader), `Entry ${id}`, `/entries/${id}`)];
    }),
  );

  // the moderators' queue; to anyone else, a page that is not there
  router.get('/moderation', ({ request }) => respond(request, (read) => moderation(run, request, read)));

  router.get('/people/:username', ({ request, url, params }) =>
    respond(request, async ({ context, visitor }) => {
      const page = pageNumber(url);
      const data = pageData(await run(PagePersonDetailDocument, request, context, { username: params.username, page }));
      if (!data.person) return [404, notFoundPage(visitor(data.reader), `Nobody called ${params.username}`)];
      const status = url.searchParams.get('reported') === '1' ? notice('Reported: the moderators will look at it. Thank you.') : null;
      return [200, personPage(visitor(data.reader), data.person, feedOf(data.stream, page), status)];
    }),
  );

  router.get('/people/:username/stats', ({ request, url, params }) =>
    respond(request, async ({ context, visitor }) => {
      const filter = statsFilter(url);
      const variables = { username: params.username, period: filter.period, activityType: filter.activityType as ActivityType | null };
      const { person, reader } = pageData(await run(PagePersonStatsDocument, request, context, variables));
      if (!person) return [404, notFoundPage(visitor(reader), `Nobody called ${params.username}`)];
      const types = SPEC_ACTIVITY_TYPES.map((type) => type.toUpperCase());
      if (filter.activityType && !types.includes(filter.activityType)) types.push(filter.activityType);
      return [200, statsPage(visitor(reader), person, filter, types)];
    }),
  );

  router.get('/nearby', ({ request, url }) => respond(request, (read) => nearby(run, request, url, read)));
  router.get('/notifications', ({ request, url }) => respond(request, (read) => notifications(run, request, url, read)));
  router.get('/search', ({ request, url }) => respond(request, (read) => search(run, request, url, read)));
  router.get('/fediverse', ({ request }) => respond(request, (read) => fediverseStream(run, request, read)));

  router.get('/gear/:id', ({ request, url, params }) => respond(request, (read) => gearRoute(run, request, url, params.id, read)));

  router.get('/routes/:id', ({ request, params }) =>
    respond(request, async ({ context, visitor }) => {
      const id = positiveId(params.id);
      if (id === null) return [404, notFoundPage(visitor(), `Route ${params.id}`)];
      const { route, reader } = pageData(await run(PageRouteDocument, request, context, { id }));
      return route ? [200, routePage(visitor(reader), route, reader?.privacyZones)] : [404, notFoundPage(visitor(reader), `Route ${id}`)];
    }),
  );

  return (request) => respond(request, async ({ visitor }) => [404, notFoundPage(visitor(), `The page ${new URL(request.url).pathname}`)]);
}
