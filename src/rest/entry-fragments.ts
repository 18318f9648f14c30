// Each entry's REST JSON, kept per version (issue 18). A legacy stream page is the same twenty entries
// for one request after another; running the GraphQL operation for all they show, shaping each as
// COMPAT.md has it and serializing 40-odd KB cost about two thirds of such a request's CPU. A page
// now first runs its operation for the entries' ids only (src/operations/rest.graphql), which records
// the version each entry was read at (db/entry-pages.ts: its revision and the people revision, moved
// by triggers on every write that changes what it shows); when every entry's JSON is kept at that
// version, the page is put together from them. Otherwise the whole page runs as before and its
// entries are kept at the versions that run read them at.
//
// - An entry's JSON depends on nothing else but the origin its URLs are made with: it is kept per origin.
//   Who may see an entry decides which entries a page has, never what one of them shows; should an
//   entry's JSON ever depend on its viewer, the viewer belongs in the key.
// - Bounded by the characters kept, least recently used out first: a client sending many origins (the
//   Host header) or reading deep pages only pushes older entries out.
import type { Context } from '../graphql/context.ts';

/** Characters of JSON kept per process by default: about 8 MB, some 4,000 entries of a usual page. */
export const FRAGMENT_CHARACTERS = 8_000_000;

interface Fragment {
  version: string;
  json: string;
}

export class EntryFragments {
  private readonly kept = new Map<string, Fragment>();
  private characters = 0;

  constructor(private readonly capacity = FRAGMENT_CHARACTERS) {}

  /** The JSON of every entry of `ids` at the version `versions` gives it, in order; null if any is missing. */
  all(origin: string, ids: readonly number[], versions: ReadonlyMap<number, string>): string[] | null {
    const found: string[] = [];
    for (const id of ids) {
      const key = `${origin} ${id}`;
      const fragment = this.kept.get(key);
      if (fragment === undefined || fragment.version !== versions.get(id)) return null;
      // most recently used goes last
      this.kept.delete(key);
      this.kept.set(key, fragment);
      found.push(fragment.json);
    }
    return found;
  }

  /** Keeps an entry's JSON at `version`; an entry read at no known version is not kept. */
  keep(origin: string, id: number, version: string | undefined, json: string): void {
    if (version === undefined || json.length > this.capacity) return;
    const key = `${origin} ${id}`;
    this.forget(key);
    while (this.characters + json.length > this.capacity) this.forget(this.kept.keys().next().value!);
    this.kept.set(key, { version, json });
    this.characters += json.length;
  }

  private forget(key: string): void {
    const fragment = this.kept.get(key);
    if (fragment === undefined) return;
    this.kept.delete(key);
    this.characters -= fragment.json.length;
  }
}

/** A context whose stream pages record the version each of their entries was read at. */
export function recordingVersions(context: Context): { context: Context; versions: Map<number, string> } {
  const versions = new Map<number, string>();
  return { context: { ...context, entryVersions: versions }, versions };
}
