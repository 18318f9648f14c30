import { ACTIVITY_TYPES, storedValue, UNIT_PREFERENCES } from '../../domain/activity.ts';
import type { GpxPoint } from '../../domain/gpx.ts';
import { type HiddenParts, hidesPlace } from '../../domain/privacy-zones.ts';
import { decodePoints } from '../../domain/track-codec.ts';
import { fromMeters } from '../../domain/units.ts';
import { KeptWork, keptGpx, trackWork } from '../../tracks/pool.ts';
import { builder } from '../builder.ts';
import { readsAsOwner } from '../context.ts';
import { databaseIdOf, namesObject } from '../global-ids.ts';
import { personById, privacyOf, trackOfRoute, trackPoints } from '../loaders.ts';
import { blockedByPerson } from '../lookups.ts';
import { ownerOfTrack, pointDataOf, shownTrack, trackPrivacy } from '../privacy.ts';
import { ActivityTypeEnum } from './enums.ts';
import { sizeArgument } from './errors.ts';
import { GeoPointRef } from './geo.ts';
import { countedConnection, listConnection, listDescription, pageExtensions, ROUTES_PAGE, timeAndId, withKey } from './lists.ts';
import { DistanceRef } from './workout.ts';

export const RouteRef = builder.prismaNode('Route', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description: 'A named route, optionally with a GPS track (SPEC 2.4, 4.7).',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database, as the REST paths and the original API name it.' }),
    name: t.exposeString('name', { nullable: true, description: 'Its name, if it has one.' }),
    activityType: t.field({
      description: 'What the route is for, if said.',
      type: ActivityTypeEnum,
      nullable: true,
      resolve: (r) => (r.activityType === null ? null : storedValue(ACTIVITY_TYPES, r.activityType, 'Route.activityType')),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    owner: t.relation('owner', { description: 'Whose route it is.' }),
    track: t.relation('track', { nullable: true, description: 'Its GPS track; null until one is uploaded.' }),
    distance: t.field({
      type: DistanceRef,
      nullable: true,
      description: "Length of the track in the owner's preferred units (to anyone else, of the part they are shown); null without a track.",
      // its track and its owner's units from loaders batched over the page's routes: as relations of the
      // select, Prisma read both for a page with no route at all (`IN (NULL)`, two statements a person page)
      resolve: async (route, _args, context) => {
        const track = await trackOfRoute(context, route.id);
        if (!track) return null;
        const units = storedValue(UNIT_PREFERENCES, (await personById(context, route.ownerId)).units, 'Person.units');
        // to anyone but the owner, the length of what they are shown of it
        const shown = await shownTrack(context, { id: track.id, ownerId: route.ownerId, pointCount: track.pointCount });
        const meters = shown ? shown.summary.distanceMeters : track.distanceMeters;
        return { value: Math.round(fromMeters(meters, units) * 10_000) / 10_000, units };
      },
    }),
    start: t.field({
      type: GeoPointRef,
      nullable: true,
      description:
        "Where the track starts (to anyone but its owner, its first point outside the owner's privacy zones); null without a track.",
      select: { ownerId: true, track: { select: { id: true, pointData: true, pointCount: true } } },
      resolve: async (route, _args, context) => {
        if (!route.track) return null;
        const shown = await shownTrack(context, { ...route.track, ownerId: route.ownerId });
        if (shown) return shown.start;
        const [first] = decodePoints(route.track.pointData, 1);
        return first ? { lat: first.lat, lon: first.lon } : null;
      },
    }),
    gpxUrl: t.string({
      description: 'Where to download the route as GPX 1.1.',
      resolve: (route, _args, context) => `${context.baseUrl}/routes/${route.id}.gpx`,
    }),
  }),
});

const TrackPointRef = builder.objectRef<GpxPoint>('TrackPoint').implement({
  description: 'A recorded point of a track.',
  fields: (t) => ({
    lat: t.exposeFloat('lat', { description: 'Degrees north (WGS 84).' }),
    lon: t.exposeFloat('lon', { description: 'Degrees east (WGS 84).' }),
    elevation: t.exposeFloat('elevation', { nullable: true, description: 'Meters above sea level.' }),
    time: t.expose('time', { type: 'DateTime', nullable: true, description: 'When it was recorded; null for an untimed point.' }),
    heartRate: t.exposeInt('heartRate', { nullable: true, description: 'Beats per minute.' }),
    cadence: t.exposeInt('cadence', { nullable: true, description: 'Revolutions or steps per minute.' }),
    power: t.int({
      nullable: true,
      description: 'Watts, as a power meter recorded them (FIT, TCX and GPX `<power>` imports).',
      resolve: (point) => point.power ?? null,
    }),
    segment: t.exposeInt('segment', { description: 'Which `<trkseg>` of the GPX document, from 0.' }),
  }),
});

const TrackWaypointRef = builder.prismaObject('TrackWaypoint', {
  description: 'A named point of the uploaded GPX document.',
  fields: (t) => ({
    lat: t.exposeFloat('lat', { description: 'Degrees north (WGS 84).' }),
    lon: t.exposeFloat('lon', { description: 'Degrees east (WGS 84).' }),
    elevation: t.exposeFloat('elevation', { nullable: true, description: 'Meters above sea level.' }),
    time: t.expose('time', { type: 'DateTime', nullable: true, description: 'Its time, if the document gave one.' }),
    name: t.exposeString('name', { nullable: true, description: 'Its name (`<name>`).' }),
  }),
});

const HiddenPartsRef = builder.objectRef<HiddenParts>('TrackHiddenParts').implement({
  description:
    "What a person's privacy zones hide of one of their tracks from everyone else (distance and duration stay the whole track's).",
  fields: (t) => ({
    endsMeters: t.exposeFloat('endsMeters', { description: 'Meters hidden from the start and back from the finish.' }),
    hiddenPoints: t.exposeInt('hiddenPoints', { description: 'Points nobody else receives.' }),
    zonesCrossed: t.exposeInt('zonesCrossed', { description: 'How many of the privacy zones the track passes through.' }),
  }),
});

/** Outlines kept, in points: a track's page asks for the same one at each view (KeptWork). */
const keptOutlines = new KeptWork<GpxPoint[]>(1_000_000, (points) => points.length);

export const TrackRef = builder.prismaObject('Track', {
  description: 'A GPS track of a workout entry or a route.',
  // only the columns the selection needs: a track's packed points are read for `points`, `outline`
  // and `gpx` alone, never for a list of entries that shows their polylines
  select: { id: true },
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true, description: 'The name the GPX document gave it.' }),
    pointCount: t.int({
      description: 'Points of the track (to anyone but its owner, of the part they are shown).',
      select: { pointCount: true },
      resolve: async (track, _args, context) => (await shownTrack(context, track))?.summary.pointCount ?? track.pointCount,
    }),
    distanceMeters: t.float({
      description:
        'Summed within segments; gaps between segments do not count. To anyone but the owner, the length of the part they are shown.',
      select: { distanceMeters: true },
      resolve: async (track, _args, context) => (await shownTrack(context, track))?.summary.distanceMeters ?? track.distanceMeters,
    }),
    elevationGain: t.float({
      description: 'Meters climbed (to anyone but the owner, on the part they are shown).',
      select: { elevationGain: true },
      resolve: async (track, _args, context) => (await shownTrack(context, track))?.summary.elevationGain ?? track.elevationGain,
    }),
    polyline: t.string({
      description:
        'Google encoded polyline of the track, thinned to at most 500 points; to anyone but its owner, without the parts their privacy zones hide.',
      select: { polyline: true },
      resolve: async (track, _args, context) => (await shownTrack(context, track))?.polyline ?? track.polyline,
    }),
    repairs: t.stringList({
      nullable: true,
      description:
        'What was salvaged or dropped to read the uploaded file (a FIT file cut short or damaged, times outside 1970..2199), one sentence each; empty for a clean file. Only the owner sees it; null for anyone else.',
      select: { repairs: true },
      resolve: async (track, _args, context) => {
        if (context.viewer?.id !== (await ownerOfTrack(context, track))) return null;
        return track.repairs ? track.repairs.split('\n') : [];
      },
    }),
    privacy: t.field({
      type: HiddenPartsRef,
      nullable: true,
      description: "What the owner's privacy zones hide of this track from everyone else. Only the owner sees it; null for anyone else.",
      select: { pointData: true, pointCount: true },
      resolve: async (track, _args, context) => {
        const owner = await ownerOfTrack(context, track);
        if (!readsAsOwner(context, owner)) return null;
        return trackWork({ kind: 'hiddenParts', pointData: track.pointData, settings: await privacyOf(context, owner) }, track.pointCount);
      },
    }),
    waypoints: t.field({
      type: [TrackWaypointRef],
      description:
        "Named points of the uploaded document; to anyone but the owner, without those inside the owner's privacy zones or within reach of the track's hidden start and finish.",
      select: { waypoints: { orderBy: { seq: 'asc' } } },
      resolve: async (track, _args, context) => {
        const shown = await shownTrack(context, track);
        return shown ? track.waypoints.filter((waypoint) => !hidesPlace(waypoint, shown.settings, shown.ends)) : track.waypoints;
      },
    }),
  }),
});

// the track's points: its GPX, its times, and its points thinned or whole
builder.prismaObjectFields(TrackRef, (t) => ({
  gpx: t.string({
    description: 'The whole track as a GPX 1.1 document, with its waypoints and any planned route (`<rte>`) it was uploaded with.',
    // not the packed points: a kept document (the usual case for a big track) needs none of its megabytes
    select: {
      name: true,
      pointCount: true,
      updatedAt: true,
      waypoints: { orderBy: { seq: 'asc' }, select: { lat: true, lon: true, elevation: true, time: true, name: true } },
    },
    resolve: async (track, _args, context) => {
      const settings = await trackPrivacy(context, track);
      // kept by version and by what is hidden: a download asked again (any query string) is not made again
      return keptGpx(`${track.id}:${track.updatedAt.getTime()}:${settings ? JSON.stringify(settings) : ''}`, async () => {
        const { pointData, routePointData } = await trackPoints(context, track.id);
        const shown = settings ? await shownTrack(context, { ...track, pointData }) : null;
        const waypoints = shown ? track.waypoints.filter((waypoint) => !hidesPlace(waypoint, shown.settings, shown.ends)) : track.waypoints;
        const work = { kind: 'gpx', name: track.name, pointData, routePointData, waypoints, settings } as const;
        return Buffer.from(await trackWork(work, track.pointCount)).toString('utf8');
      });
    },
  }),
  startedAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'Time of the first timed point (to anyone but the owner, of the part they are shown).',
    select: { startedAt: true },
    resolve: async (track, _args, context) => {
      const shown = await shownTrack(context, track);
      return shown ? shown.summary.startedAt : track.startedAt;
    },
  }),
  endedAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'Time of the last timed point (to anyone but the owner, of the part they are shown).',
    select: { endedAt: true },
    resolve: async (track, _args, context) => {
      const shown = await shownTrack(context, track);
      return shown ? shown.summary.endedAt : track.endedAt;
    },
  }),
  updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the track was last uploaded.' }),
  outline: t.field({
    type: [TrackPointRef],
    description:
      'The points thinned evenly to at most `max` (2 to 2,000, else an error naming `max`; first and last kept): enough to draw the path or an elevation profile.',
    args: { max: t.arg.int({ required: false, defaultValue: 500, description: 'At most this many points.' }) },
    // not the packed points: a kept outline (the usual case for a big track's page) needs none of their megabytes
    select: { pointCount: true, updatedAt: true },
    resolve: async (track, args, context) => {
      const settings = await trackPrivacy(context, track);
      const max = sizeArgument('max', args.max ?? 500, 2, 2000);
      return keptOutlines.get(`${track.id}:${track.updatedAt.getTime()}:${max}:${settings ? JSON.stringify(settings) : ''}`, async () =>
        trackWork({ kind: 'outline', pointData: await pointDataOf(context, track), settings, max }, track.pointCount),
      );
    },
  }),
  points: t.field({
    type: [TrackPointRef],
    description: 'The points in order; `first` bounds how many come back (0 to 100,000, else an error naming `first`).',
    args: { first: t.arg.int({ required: false, defaultValue: 10_000, description: 'The first this many points.' }) },
    select: { pointData: true, pointCount: true },
    resolve: async (track, args, context) => {
      const first = sizeArgument('first', args.first ?? 10_000, 0, 100_000);
      return trackWork(
        { kind: 'points', pointData: track.pointData, settings: await trackPrivacy(context, track), first },
        track.pointCount,
      );
    },
  }),
}));

export const { connection: RouteConnection, edge: RouteEdge } = countedConnection(RouteRef, 'Route', 'routes');

// a person's routes live here, beside the type they return
builder.prismaObjectField('Person', 'routes', (t) =>
  t.connection(
    {
      type: RouteRef,
      description: listDescription('Their routes, newest first.', ROUTES_PAGE),
      extensions: pageExtensions(ROUTES_PAGE),
      select: (_args, _context, nestedSelection) => ({
        routes: withKey(nestedSelection({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }, ['edges', 'node'])),
      }),
      // the routes of someone who blocked the viewer: none (the blocker is not found to them)
      resolve: async (person, args, context) =>
        listConnection((await blockedByPerson(context, person.id)) ? [] : person.routes, args, {
          key: timeAndId,
          descending: true,
          ...ROUTES_PAGE,
        }),
    },
    RouteConnection,
  ),
);

builder.queryFields((t) => ({
  route: t.prismaField({
    type: 'Route',
    nullable: true,
    description: 'A route by id; null when there is none.',
    args: { id: t.arg.id({ required: true, description: namesObject('Route') }) },
    resolve: (query, _root, args, context) => {
      const id = databaseIdOf(args.id, 'Route');
      if (id === null) return null;
      // a route of someone who blocked the viewer is missing to them, as its owner is
      const owner = context.viewer ? { owner: { blocks: { none: { blockedId: context.viewer.id } } } } : {};
      return context.prisma.route.findFirst({ ...query, where: { id, ...owner } });
    },
  }),
}));
