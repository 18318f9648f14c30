// The response shapes of COMPAT.md, key for key, from the GraphQL results of src/operations/rest.graphql.
// Keys are snake_case; enum values as the original service wrote them; empty optional keys left out.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { displayActivityType } from '../domain/activity.ts';
import type {
  RestEntryFragment,
  RestFriendshipFragment,
  RestPersonFragment,
  RestRouteFragment,
  RestTrackFragment,
} from '../operations/generated.ts';

/** What the shapes are made from: the typed results of src/operations/rest.graphql. */
type GqlPerson = RestPersonFragment & { location?: string | null; timeZone?: string | null; goal?: string | null };
type GqlEntry = RestEntryFragment;
type GqlRoute = RestRouteFragment;

const lower = (value: string) => value.toLowerCase();

/** GeoJSON order, numbers as strings, as the original service sent them. */
const point = (geo: { latitude: number; longitude: number }) => ({
  type: 'Point',
  coordinates: [String(geo.longitude), String(geo.latitude)],
});

/** The person inside an entry, comment or like: exactly these four keys. */
export function userJson(person: GqlPerson) {
  return { username: person.username, display_name: person.displayName, photo_url: person.photoUrl, url: person.url };
}

/** A person's time zone when they chose none: the original service's name for UTC. */
export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * A person (`/people/<u>.json`, `/people/me.json`): always the six keys clients read, in the order
 * they saw them. A location never set is `null`; a time zone never set is UTC. `goal` when set.
 */
export function personJson(person: GqlPerson) {
  const out: Record<string, unknown> = {
    username: person.username,
    display_name: person.displayName,
    url: person.url,
    location: person.location || null,
    time_zone: person.timeZone || DEFAULT_TIME_ZONE,
    photo_url: person.photoUrl,
  };
  if (person.goal) out.goal = person.goal;
  return out;
}

/** A person in a friend list: the four keys of a nested person, then `location`, always (COMPAT's five keys). */
export function friendJson(person: GqlPerson) {
  return { ...userJson(person), location: person.location || null };
}

/**
 * Where the viewer stands with a person after a friend request or its removal: `requested` (waiting
 * for them), `friends`, or `none`; and the person, as a friend list shows them.
 */
export function friendshipJson(state: RestFriendshipFragment) {
  return { status: lower(state.status), person: friendJson(state.person) };
}

export function commentJson(comment: GqlEntry['comments']['edges'][number]['node']) {
  return { body: comment.body, created_at: comment.createdAt, user: userJson(comment.author) };
}

export function likeJson(like: GqlEntry['likes']['edges'][number]['node']) {
  return { created_at: like.createdAt, user: userJson(like.person) };
}

function workoutJson(workout: NonNullable<GqlEntry['workout']>) {
  const out: Record<string, unknown> = { activity_type: displayActivityType(workout.activityType) };
  if (workout.distance) out.distance = { value: workout.distance.value, units: lower(workout.distance.units) };
  if (workout.duration !== null) out.duration = workout.duration;
  if (workout.felt) out.felt = lower(workout.felt);
  if (workout.title) out.title = workout.title;
  if (workout.calories !== null) out.calories = workout.calories;
  // the legacy shape names a route by its number
  if (workout.routeId !== null) out.route_id = Number(decodeGlobalID(workout.routeId).id);
  // and gear the same way (`workout[gear_id]` when posting)
  if (workout.gearId !== null) out.gear_id = Number(decodeGlobalID(workout.gearId).id);
  return out;
}

/** Key order as clients saw it: id, url, at, message, comments, likes, location, geo, user, workout, media. */
export function entryJson(entry: GqlEntry) {
  const out: Record<string, unknown> = { id: entry.id, url: entry.url, at: entry.at };
  if (entry.message) out.message = entry.message;
  out.comments = entry.comments.edges.map((edge) => commentJson(edge.node));
  out.likes = entry.likes.edges.map((edge) => likeJson(edge.node));
  if (entry.location) out.location = { name: entry.location.name };
  if (entry.geo) out.geo = point(entry.geo);
  out.user = userJson(entry.author);
  if (entry.workout) out.workout = workoutJson(entry.workout);
  if (entry.media.length) {
    out.media = entry.media.map((m) => ({
      content: { type: lower(m.content.type), url: m.content.url },
      ...(m.preview ? { preview: { type: lower(m.preview.type), url: m.preview.url } } : {}),
    }));
  }
  return out;
}

export function routeJson(route: GqlRoute) {
  const out: Record<string, unknown> = { id: route.id };
  if (route.name) out.name = route.name;
  if (route.activityType) out.activity_type = displayActivityType(route.activityType);
  if (route.distance) out.distance = { value: route.distance.value, units: lower(route.distance.units) };
  if (route.start) out.geo = point(route.start);
  if (route.track?.polyline) out.encoded_samples = route.track.polyline;
  return out;
}

/** The answer to a track upload. */
export function trackJson(track: RestTrackFragment) {
  const out: Record<string, unknown> = {
    points: track.pointCount,
    distance: { value: Math.round(track.distanceMeters * 10) / 10, units: 'meters' },
    elevation_gain: track.elevationGain,
  };
  if (track.startedAt) out.started_at = track.startedAt;
  if (track.endedAt) out.ended_at = track.endedAt;
  out.encoded_samples = track.polyline;
  // what was salvaged or dropped to read the file (the uploader's answer only)
  if (track.repairs?.length) out.repairs = track.repairs;
  return out;
}
