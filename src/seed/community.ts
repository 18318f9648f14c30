// The demo community as plain rows: deterministic (a seeded PRNG), no I/O, generated batch by batch so
// that a million entries never sit in memory at once. seed.ts writes what this produces.
import { FEELINGS, SPEC_ACTIVITY_TYPES, type UnitPreference } from '../domain/activity.ts';

/** The seed's workouts are of SPEC's five activity types. */
type ActivityType = (typeof SPEC_ACTIVITY_TYPES)[number];

import { EARTH_RADIUS_MILES, type Point } from '../domain/geo.ts';
import type { TrackPointInput } from '../domain/track.ts';
import { defaultDistanceUnits, fromMeters } from '../domain/units.ts';

/** What one unit of `--scale` adds. */
export const PER_SCALE = { people: 100, entries: 1000, comments: 3000, likes: 5000, routes: 10, friendsEach: 8 } as const;
/** Tracks are long: past this many routes, routes are created without one. */
export const MAX_TRACKED_ROUTES = 400;

export interface City extends Point {
  name: string;
  timeZone: string;
  units: UnitPreference;
}

export const CITIES: readonly City[] = [
  { name: 'Oakland, CA', lat: 37.8044, lon: -122.2712, timeZone: 'Pacific Time (US & Canada)', units: 'miles' },
  { name: 'San Francisco, CA', lat: 37.7749, lon: -122.4194, timeZone: 'Pacific Time (US & Canada)', units: 'miles' },
  { name: 'Portland, OR', lat: 45.5152, lon: -122.6784, timeZone: 'Pacific Time (US & Canada)', units: 'miles' },
  { name: 'Boulder, CO', lat: 40.015, lon: -105.2705, timeZone: 'Mountain Time (US & Canada)', units: 'miles' },
  { name: 'Chicago, IL', lat: 41.8781, lon: -87.6298, timeZone: 'Central Time (US & Canada)', units: 'miles' },
  { name: 'New York, NY', lat: 40.7128, lon: -74.006, timeZone: 'Eastern Time (US & Canada)', units: 'miles' },
  { name: 'London', lat: 51.5074, lon: -0.1278, timeZone: 'London', units: 'kilometers' },
  { name: 'Berlin', lat: 52.52, lon: 13.405, timeZone: 'Berlin', units: 'kilometers' },
  { name: 'Nairobi', lat: -1.2921, lon: 36.8219, timeZone: 'Nairobi', units: 'kilometers' },
  { name: 'Tokyo', lat: 35.6762, lon: 139.6503, timeZone: 'Tokyo', units: 'kilometers' },
  { name: 'Sydney', lat: -33.8688, lon: 151.2093, timeZone: 'Sydney', units: 'kilometers' },
  { name: 'Auckland', lat: -36.8485, lon: 174.7633, timeZone: 'Auckland', units: 'kilometers' },
];

const FIRST = [
  'alex',
  'ben',
  'carla',
  'dev',
  'emma',
  'femi',
  'grace',
  'hiro',
  'ines',
  'jonas',
  'kira',
  'liam',
  'maya',
  'noah',
  'olu',
  'priya',
  'quinn',
  'rosa',
  'sam',
  'tomas',
  'uma',
  'vik',
  'wen',
  'ximena',
  'yusuf',
  'zoe',
];
const LAST = [
  'Hughes',
  'Weber',
  'Okafor',
  'Tanaka',
  'Silva',
  'Novak',
  'Kowalski',
  'Larsen',
  'Moreau',
  'Patel',
  'Rossi',
  'Nguyen',
  'Schmidt',
  'Haddad',
  'Murphy',
  'Berg',
];
const GOALS = [
  'Sub-4 marathon this fall',
  'Ride a century',
  'Swim a mile without stopping',
  'Move every day',
  'First triathlon',
  'Get back after the knee surgery',
  null,
];

const NOTES = [
  'Rest day. Legs say thank you.',
  'New shoes arrived, first run tomorrow!',
  'Anyone up for the group ride on Saturday?',
  'Stretching and foam rolling tonight.',
  'Race bib picked up. Nervous and excited.',
  'Signed up for the spring half marathon.',
  'Rainy week, treadmill it is.',
];
const HOW_IT_WENT: Record<ActivityType, string[]> = {
  running: [
    'A nice Sunday morning run',
    'Tempo run, felt strong on the hills',
    'Easy recovery jog by the water',
    'Intervals at the track: 6 x 800',
  ],
  cycling: ['Long ride into the hills', 'Commute by bike, tailwind both ways', 'Group ride, we kept it steady', 'Climbing repeats'],
  swimming: ['Pool session: drills and 10 x 100', 'Open water swim, a bit choppy', 'Easy laps before work'],
  walking: ['Evening walk with the dog', 'Lunch walk around the lake', 'Hiked up to the ridge'],
  fitness: ['Strength circuit at the gym', 'Yoga flow, 45 minutes', 'Core and mobility'],
};
const TITLES: Record<ActivityType, string[]> = {
  running: ['Morning run', 'Lake loop', 'Track intervals', 'Long run'],
  cycling: ['Hill ride', 'Bike commute', 'Saturday group ride'],
  swimming: ['Pool swim', 'Open water'],
  walking: ['Dog walk', 'Ridge hike'],
  fitness: ['Gym', 'Yoga'],
};
const COMMENTS = [
  'congrats!',
  'Nice pace!',
  'Great work, keep it up',
  'Those hills are brutal',
  'See you on Saturday?',
  'Wow, impressive',
  'Rest up!',
  'Love that route',
  'Next time I am joining you',
];
const ROUTE_NAMES = [
  'Lake loop',
  'Ridge climb',
  'Riverside path',
  'Park perimeter',
  'Harbor out-and-back',
  'Hill repeats',
  'Bridge run',
  'Canal towpath',
];

/** mulberry32: small, fast and good enough for demo data; the same seed gives the same community. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof createRandom>;

/** A point about `miles` from `center` in a random direction. */
function jitter(random: Random, center: Point, miles: number): Point {
  const distance = random.next() * miles;
  const bearing = random.next() * 2 * Math.PI;
  const dLat = ((distance * Math.cos(bearing)) / EARTH_RADIUS_MILES) * (180 / Math.PI);
  const dLon = (((distance * Math.sin(bearing)) / EARTH_RADIUS_MILES) * (180 / Math.PI)) / Math.cos((center.lat * Math.PI) / 180);
  return { lat: round(center.lat + dLat, 6), lon: round(center.lon + dLon, 6) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export interface PersonRow {
  id: number;
  username: string;
  usernameKey: string;
  displayName: string;
  location: string;
  timeZone: string;
  goal: string | null;
  units: UnitPreference;
  createdAt: Date;
}

export function cityOf(personIndex: number): City {
  return CITIES[personIndex % CITIES.length]!;
}

export function generatePeople(random: Random, firstId: number, count: number, takenKeys: Set<string>, now: Date): PersonRow[] {
  const people: PersonRow[] = [];
  for (let i = 0; i < count; i++) {
    const first = random.pick(FIRST);
    const last = random.pick(LAST);
    let username = `${first}${last[0]!.toLowerCase()}`;
    for (let n = 2; takenKeys.has(username); n++) username = `${first}${last[0]!.toLowerCase()}${n}`;
    takenKeys.add(username);
    const city = cityOf(firstId + i);
    people.push({
      id: firstId + i,
      username,
      usernameKey: username,
      displayName: `${first[0]!.toUpperCase()}${first.slice(1)} ${last[0]}.`,
      location: city.name,
      timeZone: city.timeZone,
      goal: random.pick(GOALS),
      units: city.units,
      createdAt: new Date(now.getTime() - random.int(400, 1200) * 86_400_000),
    });
  }
  return people;
}

/** Both directions of each friendship; pairs are unique. Friends mostly share a city. */
export function generateFriendships(random: Random, personIds: readonly number[], friendsEach: number, now: Date) {
  const seen = new Set<string>();
  const rows: Array<{ personId: number; friendId: number; createdAt: Date }> = [];
  const n = personIds.length;
  if (n < 2) return rows;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < friendsEach / 2; k++) {
      // stepping by a multiple of the city count keeps most friends in the same city
      const step = random.chance(0.8) ? CITIES.length * random.int(1, 20) : random.int(1, n - 1);
      const j = (i + step) % n;
      if (j === i) continue;
      const a = personIds[i]!;
      const b = personIds[j]!;
      const key = a < b ? `${a}:${b}` : `${b}:${a}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const createdAt = new Date(now.getTime() - random.int(1, 365) * 86_400_000);
      rows.push({ personId: a, friendId: b, createdAt }, { personId: b, friendId: a, createdAt });
    }
  }
  return rows;
}

export interface RouteRow {
  id: number;
  ownerId: number;
  name: string;
  activityType: ActivityType;
  createdAt: Date;
}

/** A closed loop around `start`, with rolling elevation and a steady pace. */
export function generateLoop(random: Random, start: Point, activity: ActivityType, startedAt: Date): TrackPointInput[] {
  const points: TrackPointInput[] = [];
  const count = random.int(120, 300);
  const radiusMiles = activity === 'cycling' ? random.next() * 4 + 3 : random.next() * 1.5 + 0.5;
  const center = jitter(random, start, 0.5);
  const secondsPerPoint = activity === 'cycling' ? 6 : 10;
  const baseElevation = random.int(5, 400);
  for (let i = 0; i < count; i++) {
    const angle = (2 * Math.PI * i) / (count - 1);
    const wobble = 1 + 0.15 * Math.sin(angle * 3);
    const dLat = ((radiusMiles * wobble * Math.cos(angle)) / EARTH_RADIUS_MILES) * (180 / Math.PI);
    const dLon =
      (((radiusMiles * wobble * Math.sin(angle)) / EARTH_RADIUS_MILES) * (180 / Math.PI)) / Math.cos((center.lat * Math.PI) / 180);
    points.push({
      lat: round(center.lat + dLat, 6),
      lon: round(center.lon + dLon, 6),
      elevation: round(baseElevation + 40 * Math.sin(angle * 2) + 10 * Math.sin(angle * 7), 1),
      time: new Date(startedAt.getTime() + i * secondsPerPoint * 1000),
    });
  }
  return points;
}

export function generateRoutes(random: Random, firstId: number, count: number, ownerIds: readonly number[], now: Date): RouteRow[] {
  const routes: RouteRow[] = [];
  for (let i = 0; i < count; i++) {
    const activity = random.pick(['running', 'running', 'cycling', 'walking'] as const);
    routes.push({
      id: firstId + i,
      ownerId: random.pick(ownerIds),
      name: random.pick(ROUTE_NAMES),
      activityType: activity,
      createdAt: new Date(now.getTime() - random.int(30, 700) * 86_400_000),
    });
  }
  return routes;
}

export interface EntryBatch {
  entries: Array<{
    id: number;
    authorId: number;
    kind: 'note' | 'workout';
    message: string | null;
    lat: number | null;
    lon: number | null;
    placeName: string | null;
    mediaType: string | null;
    mediaUrl: string | null;
    createdAt: Date;
  }>;
  workouts: Array<{
    entryId: number;
    activityType: ActivityType;
    completedAt: Date;
    distanceValue: number | null;
    distanceUnits: string | null;
    duration: number;
    felt: string | null;
    calories: number | null;
    title: string | null;
    routeId: number | null;
  }>;
  comments: Array<{ id: number; entryId: number; authorId: number; body: string; createdAt: Date }>;
  likes: Array<{ id: number; entryId: number; personId: number; createdAt: Date }>;
}

export interface EntryPlan {
  people: ReadonlyArray<{ id: number; units: UnitPreference; cityIndex: number }>;
  /** Routes by owner id, so a workout only names a route of its author. */
  routesByOwner: ReadonlyMap<number, number[]>;
  now: Date;
  /** Entries are spread evenly over this many milliseconds before `now`. */
  spanMs: number;
  total: number;
  commentsPerEntry: number;
  likesPerEntry: number;
}

/** Minimum and typical distance of a workout in meters, by activity. */
const DISTANCE_METERS: Record<ActivityType, [number, number] | null> = {
  running: [3000, 21000],
  cycling: [10000, 90000],
  swimming: [500, 3500],
  walking: [1500, 10000],
  fitness: null,
};
const SECONDS_PER_KM: Record<ActivityType, [number, number]> = {
  running: [270, 420],
  cycling: [100, 160],
  swimming: [1100, 1700],
  walking: [600, 800],
  fitness: [0, 0],
};

/** The entries with positions [from, to) of the stream, newest first, with their workouts, comments and likes. */
export function generateEntryBatch(
  random: Random,
  plan: EntryPlan,
  from: number,
  to: number,
  ids: { entry: number; comment: number; like: number },
): EntryBatch {
  const batch: EntryBatch = { entries: [], workouts: [], comments: [], likes: [] };
  const nowMs = plan.now.getTime();
  const people = plan.people;
  for (let i = from; i < to; i++) {
    const author = people[random.int(0, people.length - 1)]!;
    const city = CITIES[author.cityIndex]!;
    // whole seconds: `at` is shown at second precision and `since`/`until` compare with it
    const createdAt = new Date(Math.floor((nowMs - (i * plan.spanMs) / plan.total - random.int(0, 60_000)) / 1000) * 1000);
    const id = ids.entry++;
    const isWorkout = random.chance(0.65);
    const located = random.chance(0.75);
    const point = located ? jitter(random, city, 12) : null;
    const activity = random.pick(SPEC_ACTIVITY_TYPES);
    const withImage = random.chance(0.12);
    batch.entries.push({
      id,
      authorId: author.id,
      kind: isWorkout ? 'workout' : 'note',
      message: isWorkout ? (random.chance(0.8) ? random.pick(HOW_IT_WENT[activity]) : null) : random.pick(NOTES),
      lat: point?.lat ?? null,
      lon: point?.lon ?? null,
      placeName: located ? city.name : null,
      mediaType: withImage ? 'image' : null,
      mediaUrl: withImage ? `https://picsum.photos/seed/milepost-${id}/1024/768` : null,
      createdAt,
    });
    if (isWorkout) {
      const range = DISTANCE_METERS[activity];
      const meters = range ? random.int(range[0], range[1]) : null;
      const pace = SECONDS_PER_KM[activity];
      const duration = meters ? Math.round((meters / 1000) * random.int(pace[0], pace[1])) : random.int(20, 75) * 60;
      const units = defaultDistanceUnits(author.units, activity);
      const ownRoutes = plan.routesByOwner.get(author.id);
      batch.workouts.push({
        entryId: id,
        activityType: activity,
        completedAt: new Date(createdAt.getTime() - random.int(5, 120) * 60_000),
        distanceValue: meters === null ? null : round(fromMeters(meters, units), 4),
        distanceUnits: meters === null ? null : units,
        duration,
        felt: random.chance(0.85) ? random.pick(FEELINGS) : null,
        calories: random.chance(0.7) ? Math.round((duration / 60) * random.int(7, 13)) : null,
        title: random.chance(0.6) ? random.pick(TITLES[activity]) : null,
        routeId: ownRoutes && random.chance(0.5) ? random.pick(ownRoutes) : null,
      });
    }
    const commentCount = random.int(0, plan.commentsPerEntry * 2);
    for (let c = 0; c < commentCount; c++) {
      batch.comments.push({
        id: ids.comment++,
        entryId: id,
        authorId: people[random.int(0, people.length - 1)]!.id,
        body: random.pick(COMMENTS),
        createdAt: new Date(Math.min(nowMs, createdAt.getTime() + random.int(1, 600) * 60_000)),
      });
    }
    // consecutive people from a random start: distinct, as the one-like-per-person rule requires
    const likeCount = Math.min(people.length, random.int(0, plan.likesPerEntry * 2));
    const start = random.int(0, people.length - 1);
    for (let l = 0; l < likeCount; l++) {
      batch.likes.push({
        id: ids.like++,
        entryId: id,
        personId: people[(start + l) % people.length]!.id,
        createdAt: new Date(Math.min(nowMs, createdAt.getTime() + random.int(1, 900) * 60_000)),
      });
    }
  }
  return batch;
}
