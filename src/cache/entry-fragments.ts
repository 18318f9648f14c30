// Each entry's JSON, kept per version, for the stream pages of both edges: the REST layer's
// (rest/kit.ts) and GraphQL's (spliced-pages.ts). A stream page is the same twenty entries for one
// request after another; executing all they show, shaping and serializing 40-odd KB cost about two
// thirds of such a request's CPU. A page now first runs its operation for the entries' ids only, which
// records the version each entry was read at (db/entry-pages.ts: its revision and the people
// revision, moved by triggers on every write that changes what it shows, and whether its reader is its
// author); when every entry's JSON is kept at that version, the page is put together from them.
// Otherwise the whole page runs as before and its entries are kept at the versions that run read them
// at. A kind of page that lately did not find its entries kept is read whole at once (pageOf).
//
// - An entry's JSON depends on its version and on the origin its URLs are made with (the scope it is
//   kept under). Who may see an entry decides which entries a page has; what one of them shows differs
//   only for its author (their own places, which privacy zones hide from others), which the version
//   says. Should an entry's JSON come to depend on its viewer otherwise, that belongs in the version.
// - Bounded by the characters kept, least recently used out first: a client sending many origins (the
//   Host header) or reading deep pages only pushes older entries out.
import { LRUCache } from 'lru-cache';
import type { VersionRecorder } from '../db/entry-rows.ts';
import type { Context } from '../graphql/context.ts';

/** Characters of JSON kept per process by default: about 8 MB, some 4,000 entries of a usual page. */
export const FRAGMENT_CHARACTERS = 8_000_000;

interface Fragment {
  version: string;
  json: string;
}

/**
 * A kind of page is read for its ids first while such pages lately found all their entries kept at
 * least this often (a moving average); below it the ids would mostly be a second run for nothing
 * (a client paging deep, a page whose entries change all the time), and the page is read whole at once.
 */
const LIKELY_KEPT = 0.3;
/** How much the last page counts in the moving share. */
const SHARE_WEIGHT = 0.2;

export class EntryFragments {
  /** Least recently used out first, bounded by the characters kept; none while the capacity is 0. */
  private readonly kept: LRUCache<string, Fragment> | null;
  /** Of each kind of page, how often its pages lately found all their entries kept. */
  private readonly shares = new Map<string, number>();

  constructor(capacity = FRAGMENT_CHARACTERS) {
    this.kept = capacity > 0 ? new LRUCache({ maxSize: capacity, sizeCalculation: (fragment) => Math.max(fragment.json.length, 1) }) : null;
  }

  /** Whether any entry's JSON may be kept (ENTRY_JSON_MB is not 0). */
  get enabled(): boolean {
    return this.kept !== null;
  }

  /** Whether pages of `kind` are worth reading for their ids first (none are while nothing may be kept). */
  likelyKept(kind: string): boolean {
    return this.enabled && (this.shares.get(kind) ?? 0) >= LIKELY_KEPT;
  }

  /** Counts a page of `kind`: whether all its entries were kept (or would have been, for a page read whole). */
  record(kind: string, allKept: boolean): void {
    if (this.shares.size > 1_000 && !this.shares.has(kind)) this.shares.clear();
    this.shares.set(kind, (this.shares.get(kind) ?? 0) * (1 - SHARE_WEIGHT) + (allKept ? SHARE_WEIGHT : 0));
  }

  /** The JSON of every entry of `ids` at the version `versions` gives it, in order; null if any is missing. */
  all(origin: string, ids: readonly number[], versions: ReadonlyMap<number, string>): string[] | null {
    const found: string[] = [];
    for (const id of ids) {
      const fragment = this.kept?.get(`${origin} ${id}`);
      if (fragment === undefined || fragment.version !== versions.get(id)) return null;
      found.push(fragment.json);
    }
    return found;
  }

  /** Keeps an entry's JSON at `version`; an entry read at no known version is not kept. */
  keep(origin: string, id: number, version: string | undefined, json: string): void {
    // one larger than all that may be kept is refused by the cache itself
    if (version !== undefined) this.kept?.set(`${origin} ${id}`, { version, json });
  }
}

/** The version each entry of a page was read at, as the page's reader records it: the one recorder of the fast path. */
export class EntryVersions implements VersionRecorder {
  readonly versions = new Map<number, string>();

  record(entryId: number, version: string): void {
    this.versions.set(entryId, version);
  }
}

/** A context whose stream pages record the version each of their entries was read at. */
export function recordingVersions(context: Context): { context: Context; versions: Map<number, string> } {
  const recorder = new EntryVersions();
  return { context: { ...context, versionRecorder: recorder }, versions: recorder.versions };
}

/** A page as its first run read it: what else it holds (`rest`), and its entries' ids with their versions. */
export interface ListedPage<R> {
  rest: R;
  /** Null when the page holds no entries to put in (the stream answered an error). */
  ids: number[] | null;
  versions: ReadonlyMap<number, string>;
}

/** A page read whole: what else it holds, and each entry's id and JSON with the versions read. */
export interface WholePage<R> {
  rest: R;
  entries: Array<{ id: number; json: () => string }>;
  versions: ReadonlyMap<number, string>;
}

/**
 * A page of `kind`: read for its ids first (`listed`) when such pages lately found their entries kept,
 * and put together from their JSON when all are kept at the versions read; else read whole (`whole`)
 * and its entries kept. `scope` names what an entry's JSON depends on besides its version.
 */
export async function pageOf<R>(
  fragments: EntryFragments,
  kind: string,
  scope: string,
  listed: () => Promise<ListedPage<R>>,
  whole: () => Promise<WholePage<R>>,
): Promise<{ rest: R; entries: string[] }> {
  const idsFirst = fragments.likelyKept(kind);
  if (idsFirst) {
    const page = await listed();
    if (page.ids === null) return { rest: page.rest, entries: [] };
    const kept = fragments.all(scope, page.ids, page.versions);
    fragments.record(kind, kept !== null);
    if (kept) return { rest: page.rest, entries: kept };
  }
  const read = await whole();
  // would the ids have found them all? (read before they are kept again)
  if (!idsFirst)
    fragments.record(
      kind,
      fragments.all(
        scope,
        read.entries.map((entry) => entry.id),
        read.versions,
      ) !== null,
    );
  const entries = read.entries.map((entry) => {
    const json = entry.json();
    fragments.keep(scope, entry.id, read.versions.get(entry.id), json);
    return json;
  });
  return { rest: read.rest, entries };
}
