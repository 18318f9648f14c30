// Everything a person owns, as a zip they can take away: their profile, entries with
// workouts, the comments and likes they gave, friends and routes as JSON; every track as GPX 1.1; their
// photos; a README of the layout. The zip is written as it is read: rows come a page at a time and
// each file is produced when the zip reaches it, so memory stays flat whatever the account holds.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { defaultsOf, readDefaultGear } from '../domain/gear.ts';
import { gpxChunks } from '../domain/gpx.ts';
import { decodePoints } from '../domain/track-codec.ts';
import type { MediaStore } from '../media/store.ts';
import { mediaName } from '../media/store.ts';
import type { Prisma } from './database.ts';
import { seenBy } from './entry-conditions.ts';

/** Rows read at a time: a page of entries with their workouts is a few hundred kilobytes at most. */
const PAGE = 200;

const README = `Your Milepost account, exported

profile.json     you: username, name, location, time zone, units, goal, settings, privacy zones,
                 the address notifications are mailed to and how often;
                 "photo" names your uploaded avatar in photos/
entries.json     your entries, oldest first, each with its workout; "track" names its file in
                 tracks/, "photo" its file in photos/; "recorded" holds the laps and heart-rate
                 and power thresholds the device recorded with the track
comments.json    the comments you wrote, on anyone's entries (entryId says which)
likes.json       the entries you liked
friends.json     your friends, with when you became friends
routes.json      your routes; "track" names the file in tracks/
gear.json        your shoes, bikes and other gear; a workout's "gearId" names one by its "id";
                 "defaultFor" lists the activities it is chosen for when a workout names none
tracks/          every track as GPX 1.1 (entry-<id>.gpx, route-<id>.gpx), whole: privacy zones hide
                 parts of your tracks from others, never from you
photos/          the photos of your entries, as stored

Times are UTC, in ISO 8601. Distances keep the units they were entered in.
`;

/** A JSON array written a page of rows at a time. */
function jsonArray<T>(pages: () => AsyncGenerator<T[]>): Readable {
  return Readable.from(
    (async function* () {
      yield '[';
      let first = true;
      for await (const rows of pages()) {
        for (const row of rows) {
          yield `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
          first = false;
        }
      }
      yield '\n]\n';
    })(),
  );
}

/** Rows of a model by ascending id, `PAGE` at a time. */
async function* byId<T extends { id: number }>(read: (after: number) => Promise<T[]>): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    if (rows.length === 0) return;
    yield rows;
    after = rows.at(-1)!.id;
  }
}

const trackFile = (owner: 'entry' | 'route', id: number) => `tracks/${owner}-${id}.gpx`;

/** The zip of the person's account; null when there is no such person. Read it from `outputStream`. */
export async function accountExport(prisma: Prisma, media: MediaStore, personId: number): Promise<yazl.ZipFile | null> {
  const person = await profileOf(prisma, personId);
  if (!person) return null;
  const zip = new yazl.ZipFile();
  const text = (name: string, body: string) => zip.addBuffer(Buffer.from(body), name);
  const stream = (name: string, make: () => Readable) => zip.addReadStreamLazy(name, (callback) => callback(null, make()));
  text('README.txt', README);
  // an uploaded avatar travels as a file of the zip, named in place of its address here
  const avatar = person.photoUrl ? mediaName(person.photoUrl) : null;
  const avatarFile = avatar ? await media.file(avatar) : null;
  const profile = avatarFile ? { ...person, photoUrl: null, photo: `photos/avatar-${avatar}` } : person;
  text('profile.json', `${JSON.stringify(profile, null, 2)}\n`);
  if (avatarFile) stream(`photos/avatar-${avatar}`, () => createReadStream(avatarFile.path));
  for (const [name, pages] of Object.entries(SHEETS)) stream(name, () => jsonArray(() => pages(prisma, personId)));
  // the tracks and photos by id only: each is read when the zip reaches it
  for (const track of await tracksOf(prisma, personId)) {
    const name = track.entryId !== null ? trackFile('entry', track.entryId) : trackFile('route', track.routeId!);
    stream(name, () => Readable.from(trackGpx(prisma, track.id)));
  }
  for (const file of await photosOf(prisma, media, personId)) stream(`photos/${file.name}`, () => createReadStream(file.path));
  zip.end();
  return zip;
}

/** The person's profile and settings, with their privacy zones. */
function profileOf(prisma: Prisma, personId: number) {
  return prisma.person.findUnique({
    where: { id: personId },
    select: {
      username: true,
      displayName: true,
      location: true,
      timeZone: true,
      photoUrl: true,
      goal: true,
      units: true,
      createdAt: true,
      defaultVisibility: true,
      statsVisibility: true,
      weekStart: true,
      hiddenEndsMeters: true,
      email: true,
      emailVerifiedAt: true,
      emailFrequency: true,
      privacyZones: { select: { lat: true, lon: true, radiusMeters: true }, orderBy: { id: 'asc' } },
    },
  });
}

/** The JSON files of the zip, each read a page of rows at a time. */
const SHEETS: Record<string, (prisma: Prisma, personId: number) => AsyncGenerator<unknown[]>> = {
  'entries.json': (prisma, personId) =>
    byId(async (after) => {
      const entries = await prisma.entry.findMany({
        where: { authorId: personId, id: { gt: after } },
        orderBy: { id: 'asc' },
        take: PAGE,
        include: { workout: true, track: { select: { id: true, recorded: true } } },
      });
      return entries.map(
        ({ authorId: _author, track, mediaUrl, mediaPreviewUrl: _preview, importHash: _hash, revision: _revision, ...entry }) => ({
          ...entry,
          photo: mediaUrl && mediaName(mediaUrl) ? `photos/${mediaName(mediaUrl)}` : null,
          track: track ? trackFile('entry', entry.id) : null,
          // what the device recorded beyond the points (laps, thresholds), which a GPX cannot carry
          ...(track?.recorded && { recorded: JSON.parse(track.recorded) as unknown }),
        }),
      );
    }),
  'comments.json': (prisma, personId) =>
    byId((after) =>
      prisma.comment.findMany({
        where: { authorId: personId, id: { gt: after }, entry: seenBy(personId) },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true, entryId: true, body: true, createdAt: true },
      }),
    ),
  'likes.json': (prisma, personId) =>
    byId((after) =>
      prisma.like.findMany({
        where: { personId, id: { gt: after }, entry: seenBy(personId) },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true, entryId: true, createdAt: true },
      }),
    ),
  'friends.json': friendsOf,
  'gear.json': gearOf,
  'routes.json': (prisma, personId) =>
    byId(async (after) => {
      const routes = await prisma.route.findMany({
        where: { ownerId: personId, id: { gt: after } },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true, name: true, activityType: true, createdAt: true, track: { select: { id: true } } },
      });
      return routes.map(({ track, ...route }) => ({ ...route, track: track ? trackFile('route', route.id) : null }));
    }),
};

/** The person's gear (at most MAX_GEAR), with the activities each is the default of. */
async function* gearOf(prisma: Prisma, personId: number) {
  const person = await prisma.person.findUnique({ where: { id: personId }, select: { defaultGear: true } });
  const defaults = readDefaultGear(person?.defaultGear);
  const gear = await prisma.gear.findMany({
    where: { ownerId: personId },
    orderBy: { id: 'asc' },
    select: { id: true, name: true, brand: true, model: true, kind: true, retired: true, createdAt: true },
  });
  if (gear.length > 0) yield gear.map((row) => ({ ...row, defaultFor: defaultsOf(defaults, row.id) }));
}

/** The person's friends, a page at a time, by the friend's id. */
async function* friendsOf(prisma: Prisma, personId: number) {
  let after = 0;
  for (;;) {
    const rows = await prisma.friendship.findMany({
      where: { personId, friendId: { gt: after } },
      orderBy: { friendId: 'asc' },
      take: PAGE,
      select: { friendId: true, createdAt: true, friend: { select: { username: true, displayName: true } } },
    });
    if (rows.length === 0) return;
    yield rows.map((row) => ({ username: row.friend.username, displayName: row.friend.displayName, since: row.createdAt }));
    after = rows.at(-1)!.friendId;
  }
}

/** Which tracks the person owns (of their entries and routes), by id only. */
function tracksOf(prisma: Prisma, personId: number) {
  return prisma.track.findMany({
    where: { OR: [{ entry: { authorId: personId } }, { route: { ownerId: personId } }] },
    orderBy: { id: 'asc' },
    select: { id: true, entryId: true, routeId: true },
  });
}

/** One track as GPX 1.1, whole, read when the zip reaches it. */
async function* trackGpx(prisma: Prisma, trackId: number) {
  const stored = await prisma.track.findUniqueOrThrow({
    where: { id: trackId },
    select: {
      name: true,
      pointData: true,
      routePointData: true,
      waypoints: { orderBy: { seq: 'asc' }, select: { lat: true, lon: true, elevation: true, time: true, name: true } },
    },
  });
  yield* gpxChunks({
    name: stored.name,
    points: decodePoints(stored.pointData),
    routePoints: decodePoints(stored.routePointData),
    waypoints: stored.waypoints,
  });
}

/** The stored files of the photos of the person's entries, each once. */
async function photosOf(prisma: Prisma, media: MediaStore, personId: number) {
  const photos = await prisma.entry.findMany({
    where: { authorId: personId, mediaUrl: { not: null } },
    select: { mediaUrl: true },
    distinct: ['mediaUrl'],
  });
  const files: Array<{ name: string; path: string }> = [];
  for (const { mediaUrl } of photos) {
    const name = mediaName(mediaUrl!);
    const file = name ? await media.file(name) : null;
    if (name && file) files.push({ name, path: file.path });
  }
  return files;
}
