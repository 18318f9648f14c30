// The streams (SPEC 4.2): pages of entries, each route with its OpenAPI operation.

import { POPULAR_DAYS } from '../domain/paging.ts';
import {
  RestFriendsStreamDocument,
  RestFriendsStreamIdsDocument,
  RestNearbyStreamDocument,
  RestNearbyStreamIdsDocument,
  RestPersonStreamDocument,
  RestPersonStreamIdsDocument,
  RestPopularStreamDocument,
  RestPopularStreamIdsDocument,
  RestPublicStreamDocument,
  RestPublicStreamIdsDocument,
} from '../operations/generated.ts';
import { type RestKit, username } from './kit.ts';
import { pathParam, streamDoc, USERNAME } from './openapi-parts.ts';

/** The streams (SPEC 4.2). */
export function mountStreamRoutes(kit: RestKit): void {
  publicStreamRoute(kit);
  popularStreamRoute(kit);
  friendsStreamRoute(kit);
  nearbyStreamRoute(kit);
  myStreamRoute(kit);
  personStreamRoute(kit);
}

/** GET /entries: Public stream: everyone’s entries. */
function publicStreamRoute({ route, stream }: RestKit): void {
  route(
    'GET',
    '/entries',
    { doc: streamDoc('legacyPublicStream', 'Public stream: everyone’s entries.') },
    stream(RestPublicStreamIdsDocument, RestPublicStreamDocument, () => ({})),
  );
}

/** GET /entries/popular: Popular stream: the week’s most liked and commented entries. */
function popularStreamRoute({ route, stream }: RestKit): void {
  // the week's most liked and commented, ranked as of one moment (GraphQL popularStream)
  route(
    'GET',
    '/entries/popular',
    {
      doc: streamDoc(
        'legacyPopularStream',
        'Popular stream: the week’s most liked and commented entries.',
        [],
        false,
        [
          `The entries posted in the ${POPULAR_DAYS} days before a moment, ranked by the likes and comments they had received by then (each counts one), most first; ties newest first.`,
          'The moment is `until` when given, else the start of the current hour: pages read within the hour (or with the same `until`) rank alike, so paging neither repeats nor skips entries while likes arrive. Entries of the current hour appear from the next one.',
          '`since` keeps only entries posted after it.',
        ].join(' '),
        'most popular first',
      ),
    },
    stream(RestPopularStreamIdsDocument, RestPopularStreamDocument, () => ({})),
  );
}

/** GET /entries/friends: The viewer’s and their friends’ entries. */
function friendsStreamRoute({ route, stream }: RestKit): void {
  route(
    'GET',
    '/entries/friends',
    { auth: true, doc: streamDoc('legacyFriendsStream', 'The viewer’s and their friends’ entries.', [], true) },
    stream(RestFriendsStreamIdsDocument, RestFriendsStreamDocument, () => ({})),
  );
}

/** GET /entries/nearby/:lat,:lon: Entries posted near a point. */
function nearbyStreamRoute({ route, stream }: RestKit): void {
  route(
    'GET',
    '/entries/nearby/:lat,:lon',
    {
      doc: streamDoc('legacyNearbyStream', 'Entries posted near a point.', [
        pathParam('lat', { type: 'number', minimum: -90, maximum: 90 }, 'Latitude.'),
        pathParam('lon', { type: 'number', minimum: -180, maximum: 180 }, 'Longitude.'),
        {
          name: 'radius',
          in: 'query',
          required: false,
          description: 'Miles, default 50, at most 500.',
          schema: { type: 'number', exclusiveMinimum: 0, maximum: 500, default: 50 },
        },
      ]),
    },
    stream(RestNearbyStreamIdsDocument, RestNearbyStreamDocument, (ctx) => {
      const radius = ctx.url.searchParams.get('radius');
      return {
        lat: Number(ctx.params.lat),
        lon: Number(ctx.params.lon),
        ...(radius !== null && radius !== '' ? { radius: Number.isFinite(Number(radius)) ? Number(radius) : radius } : {}),
      };
    }),
  );
}

/** GET /people/me/entries */
function myStreamRoute({ route, stream }: RestKit): void {
  route(
    'GET',
    '/people/me/entries',
    { auth: true },
    stream(RestPersonStreamIdsDocument, RestPersonStreamDocument, (_ctx, context) => ({ username: context.viewer!.username })),
  );
}

/** GET /people/:username/entries: A person’s entries. */
function personStreamRoute({ route, stream }: RestKit): void {
  route(
    'GET',
    '/people/:username/entries',
    { doc: streamDoc('legacyPersonStream', 'A person’s entries.', [USERNAME]) },
    stream(RestPersonStreamIdsDocument, RestPersonStreamDocument, (ctx) => ({ username: username(ctx) })),
  );
}
