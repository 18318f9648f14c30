// Resolves the entry streams: one window (paging rules in domain/paging.ts), one SQL statement that
// reads the page with the parts the GraphQL selection asks for (db/entry-pages.ts), so a page costs
// the same few statements however much it holds.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import { type BoxHit, type EntryBox, readInBox } from '../db/entries-in-box.ts';
import { denseSearch, type EntryRange, type EntryScope, searchEntryIds } from '../db/entry-conditions.ts';
import { readEntriesById, readEntryPage } from '../db/entry-pages.ts';
import { type EntryParts, type LoadedEntry, PERSON_COLUMNS } from '../db/entry-rows.ts';
import { readPopularRanking } from '../db/popular-ranking.ts';
import { type FieldIssue, ValidationError } from '../domain/errors.ts';
import { boundingBox, distanceMiles, type Point } from '../domain/geo.ts';
import { encodeCursor, encodePopularCursor, pageFromRows, popularWindow, type StreamArgs, streamWindow } from '../domain/paging.ts';
import { type Context, readerOf } from './context.ts';

import { entryPlaceHidden } from './privacy.ts';

export const DEFAULT_NEARBY_RADIUS_MILES = 50;
export const MAX_NEARBY_RADIUS_MILES = 500;
/**
 * Candidates read per round trip while filtering a nearby bounding box down to its circle: most of a
 * box lies inside its circle, so the first read is barely more than the page; each further read is larger.
 */
const NEARBY_FIRST_BATCH_FACTOR = 2;
const NEARBY_MAX_BATCH = 2_000;

/** The fields selected at `path` below the fields of `nodes`, through fragments and inline fragments. */
function selectedFields(info: GraphQLResolveInfo, nodes: readonly FieldNode[], path: readonly string[]): FieldNode[] {
  let level = nodes;
  for (const name of path) {
    const next: FieldNode[] = [];
    const visit = (set: SelectionSetNode | undefined) => {
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value === name) next.push(selection);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
        else visit(info.fragments[selection.name.value]?.selectionSet);
      }
    };
    for (const node of level) visit(node.selectionSet);
    level = next;
  }
  return [...level];
}

/** What a page must carry for this selection of its entries (`edges { node { … } }`). */
export function entryPartsOf(info: GraphQLResolveInfo): EntryParts {
  const nodes = selectedFields(info, info.fieldNodes, ['edges', 'node']);
  const asks = (field: string) => selectedFields(info, nodes, [field]).length > 0;
  // the people of the page, wherever they appear in it: a column is read if any of them asks for it
  const people = [['author'], ['comments', 'edges', 'node', 'author'], ['likes', 'edges', 'node', 'person']].flatMap((path) =>
    selectedFields(info, nodes, path),
  );
  const personColumns = PERSON_COLUMNS.filter((column) => selectedFields(info, people, [column]).length > 0);
  return {
    author: asks('author'),
    workout: asks('workout'),
    comments: asks('comments'),
    likes: asks('likes') || asks('viewerHasLiked'),
    counts: asks('commentCount') || asks('likeCount'),
    // the places an entry shows others (its position, its track, its workout's figures) depend on its author's zones
    privacy: asks('geo') || asks('track') || asks('workout'),
    personColumns,
  };
}

export interface EntryConnectionShape {
  edges: Array<{ cursor: string; node: LoadedEntry }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** A page as a Relay connection; the time-ordered streams' cursor is the entry's position, unless `cursorOf` says otherwise. */
function toConnection(
  page: { items: LoadedEntry[]; hasNextPage: boolean; hasPreviousPage: boolean },
  cursorOf: (node: LoadedEntry) => string = (node) => encodeCursor({ at: node.createdAt.getTime(), id: node.id }),
): EntryConnectionShape {
  const edges = page.items.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** A page past the deepest one read: empty, as COMPAT.md answers a page past the last. */
const pastTheEnd = (): EntryConnectionShape => toConnection({ items: [], hasNextPage: false, hasPreviousPage: true });

/** The scopes of streams of many people's entries: muted people are left out of them. */
const MANY_PEOPLE = new Set<EntryScope['kind']>(['everyone', 'friendsOf', 'search']);

/** A stream of the entries of `scope`, newest first: one statement for the page and all it shows. */
export async function entryStream(
  context: Context,
  info: GraphQLResolveInfo,
  scope: EntryScope,
  args: StreamArgs,
): Promise<EntryConnectionShape> {
  const window = streamWindow(args);
  if (window.pastEnd) return pastTheEnd();
  const reader = readerOf(context, MANY_PEOPLE.has(scope.kind) ? 'stream' : 'one');
  const rows = await readEntryPage(context, scope, { ...window, limit: window.take + 1, reader }, entryPartsOf(info));
  return toConnection(pageFromRows(rows, window));
}

/**
 * The popular stream: the week's most liked and commented entries as of one moment (see
 * popularWindow and PopularRankings), then one statement for the page's entries. Its cursors carry
 * that moment, so paging on with `after` ranks as the first page did however long the client takes.
 */
export async function popularStream(context: Context, info: GraphQLResolveInfo, args: StreamArgs): Promise<EntryConnectionShape> {
  const window = popularWindow(args, Date.now());
  if (window.pastEnd) return pastTheEnd();
  const ranking = await context.popularRankings.ranking(`${window.asOfMs}:${window.fromMs}`, () => readPopularRanking(context, window));
  const ids = ranking.slice(window.skip, window.skip + window.take);
  const byId = await readEntriesById(context, ids, entryPartsOf(info), readerOf(context, 'stream'));
  const items = ids.flatMap((id) => byId.get(id) ?? []);
  // a cursor is a place in the ranking: an entry deleted since is skipped, not renumbered
  return toConnection({ items, hasNextPage: ranking.length > window.skip + window.take, hasPreviousPage: window.skip > 0 }, (node) =>
    encodePopularCursor(window.asOfMs, window.skip + ids.indexOf(node.id) + 1),
  );
}

/**
 * Entries holding the words of a search (domain/search.ts), paged as a stream. SQLite: the stream with
 * its matches as one more condition (read along the time index when they are many: denseSearch);
 * PostgreSQL: a page of ids from the matches first (searchEntryIds), then those entries.
 */
export async function searchStream(
  context: Context,
  info: GraphQLResolveInfo,
  terms: readonly string[],
  args: StreamArgs,
): Promise<EntryConnectionShape> {
  if (context.provider === 'sqlite')
    return entryStream(context, info, { kind: 'search', terms, dense: await denseSearch(context, terms) }, args);
  const window = streamWindow(args);
  if (window.pastEnd) return pastTheEnd();
  const range = { ...window, limit: window.take + 1, reader: readerOf(context, 'stream') };
  const ids = await searchEntryIds(context, terms, range);
  return toConnection(pageFromRows(await entriesInOrder(context, info, ids, range), window));
}

/** The entries of `ids` (in that order) as a page reads them, with what the selection asks for. */
async function entriesInOrder(
  context: Context,
  info: GraphQLResolveInfo,
  ids: readonly number[],
  range: EntryRange,
): Promise<LoadedEntry[]> {
  const rows = ids.length ? await readEntryPage(context, { kind: 'ids', ids }, { ...range, limit: ids.length }, entryPartsOf(info)) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function validateNearby(center: Point, radius: number): void {
  const issues: FieldIssue[] = [];
  if (!Number.isFinite(center.lat) || center.lat < -90 || center.lat > 90) {
    issues.push({ path: 'lat', message: 'must be a latitude between -90 and 90' });
  }
  if (!Number.isFinite(center.lon) || center.lon < -180 || center.lon > 180) {
    issues.push({ path: 'lon', message: 'must be a longitude between -180 and 180' });
  }
  if (!Number.isFinite(radius) || radius <= 0 || radius > MAX_NEARBY_RADIUS_MILES) {
    issues.push({ path: 'radius', message: `must be a number of miles greater than 0 and at most ${MAX_NEARBY_RADIUS_MILES}` });
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * Entries within `radius` miles of `center`, newest first. The indexed bounding box narrows the rows;
 * the exact great-circle distance decides. Boxes are read newest first in batches until the page is full.
 */
export async function nearbyStream(
  context: Context,
  info: GraphQLResolveInfo,
  center: Point,
  radius: number,
  args: StreamArgs,
): Promise<EntryConnectionShape> {
  validateNearby(center, radius);
  const window = streamWindow(args);
  if (window.pastEnd) return pastTheEnd();
  const box = boundingBox(center, radius);
  const range = { ...window, limit: window.take + 1, reader: readerOf(context, 'stream') };
  const wanted = window.skip + window.take + 1;
  // positions inside the box always have both coordinates
  const inCircle = (c: { lat: number; lon: number }) => distanceMiles(center, c) <= radius;
  // In a busy area the newest entries hold a page of nearby ones: reading them in time order walks the
  // (createdAt, id) index and stops early, where the box would have to be read and sorted whole. The
  // box is applied in the database, so only the entries inside it come back to be measured; a few
  // more than the page are asked for, since most of a box lies inside its circle.
  const probeRows = context.nearbyProbeRows ?? NEARBY_PROBE_ROWS;
  let matches: number[] = [];
  let quiet = false;
  let found = 0;
  for (let hits = Math.min(wanted * NEARBY_FIRST_BATCH_FACTOR, probeRows); ; hits = Math.min(hits * 4, probeRows)) {
    const probe = await readInBox(context, range, box, { from: 'newest', rows: probeRows, hits });
    matches = (await outsidePrivacyZones(context, probe.hits.filter(inCircle))).map((c) => c.id);
    if (matches.length >= wanted) break;
    // the newest entries ran out before the page filled: older ones are searched further
    if (probe.hits.length < hits || hits === probeRows) {
      quiet = probe.more;
      found = probe.hits.length;
      break;
    }
  }
  if (quiet) {
    matches =
      (await nearbyByWalk(context, range, box, wanted, inCircle, found / probeRows)) ??
      (await nearbyFromBox(context, range, box, wanted, inCircle));
  }
  return toConnection(pageFromRows(await entriesInOrder(context, info, matches.slice(window.skip, wanted), range), window));
}

/** The hits whose place their author does not hide from the viewer (graphql/privacy.ts): a hidden place matches no search. */
async function outsidePrivacyZones(context: Context, hits: BoxHit[]): Promise<BoxHit[]> {
  const hidden = await Promise.all(hits.map((hit) => entryPlaceHidden(context, hit, hit, hit.privacy)));
  return hits.filter((_hit, i) => !hidden[i]);
}

/** Newest entries read before the nearby search falls back to the bounding box. */
export const NEARBY_PROBE_ROWS = 2_000;

/** Rows of the time index one statement of the nearby stream's walk reads: each stays a few milliseconds. */
export const NEARBY_WALK_STEP = 10_000;
/** Below this share of the newest entries inside the box, the box is read instead of walked to (it is small). */
const NEARBY_WALK_DENSITY = 0.01;

/**
 * A page deeper than the newest entries hold, where the box is busy (`density`: the share of the
 * newest entries inside it): the time index walked on from there in steps of NEARBY_WALK_STEP rows
 * (it holds each entry's place, so the box is tested there), each step going on after the last entry
 * the one before found, after a turn of the event loop. Through the box, a deep page sorted every entry
 * inside it for each batch: 0.35 s a statement, with the event loop held, for a city's box of a million
 * entries. Null where the box is quiet, or a step found nothing to go on from: the box is read then.
 */
async function nearbyByWalk(
  context: Context,
  range: EntryRange,
  box: EntryBox,
  wanted: number,
  inCircle: (c: { lat: number; lon: number }) => boolean,
  density: number,
): Promise<number[] | null> {
  if (density < NEARBY_WALK_DENSITY) return null;
  const matches: number[] = [];
  for (let from = range; ; ) {
    const rows = context.nearbyWalkRows ?? NEARBY_WALK_STEP;
    const step = await readInBox(context, from, box, { from: 'newest', rows, hits: rows });
    for (const c of await outsidePrivacyZones(context, step.hits.filter(inCircle))) matches.push(c.id);
    if (matches.length >= wanted || !step.more) return matches;
    const last = step.hits.at(-1);
    if (!last) return null;
    // the rows after it are walked again: its step may have ended past it
    const after = { at: last.at, id: last.id };
    from = range.direction === 'newest' ? { ...from, olderThan: after } : { ...from, newerThan: after };
    // a SQLite read answers at once: without a turn of the loop, the steps would hold it as one
    await nextTurn();
  }
}

/** A quiet area: the indexed bounding box, newest first, in growing batches, filtered to the circle. */
async function nearbyFromBox(
  context: Context,
  range: EntryRange,
  box: EntryBox,
  wanted: number,
  inCircle: (c: { lat: number; lon: number }) => boolean,
): Promise<number[]> {
  const matches: number[] = [];
  let batch = wanted * NEARBY_FIRST_BATCH_FACTOR;
  for (let offset = 0; matches.length < wanted; offset += batch, batch = Math.min(batch * 4, NEARBY_MAX_BATCH)) {
    const candidates = await readInBox(context, range, box, { from: 'box', rows: batch, offset });
    for (const c of await outsidePrivacyZones(context, candidates.hits.filter(inCircle))) matches.push(c.id);
    if (!candidates.more) break;
  }
  return matches;
}
