// Entry documents kept between requests: the part of a stream page that is the same for
// every viewer (an entry with its author, workout, comments with their authors, likes with their
// people). A page reads its entries' ids and revisions, takes the documents it keeps at those
// revisions, and reads only the others. Triggers move an entry's revision on every write to it, its
// workout, comments or likes, and one revision for all people whenever a column a page shows of a
// person, or their privacy settings, changes (prisma/migrations/*_entry_revisions): whichever process
// or command wrote, the next page sees it. Viewers still see only what they may: visibility is
// applied to the ids, not kept.
import { LRUCache } from 'lru-cache';
import type { LoadedEntry } from './entry-rows.ts';

/** Documents kept per process by default: about 3 KB each for a page's usual entry. */
export const KEPT_DOCUMENTS = 5_000;

/**
 * A page reads its ids first, and the documents it did not find kept in a second statement, while
 * pages of its kind lately found at least this share kept; below it, the second statement would be
 * paid on nearly every page for little, and the documents come with the ids instead.
 */
const LIKELY_KEPT = 0.3;
/** How much the last page counts in the moving share. */
const SHARE_WEIGHT = 0.2;

interface Kept {
  revision: number;
  people: number;
  entry: LoadedEntry;
}

/**
 * A bounded map of documents, least recently used out first. Every request shares them, so a resolver
 * that changed one would change other viewers' answers: outside production they are frozen, all the
 * way down, and the suite fails on any such change. In production the freezing is left out: it cost a
 * page read for the first time about 0.4 ms of CPU (a fifth of the page, `bench/ab.ts`).
 */
export class KeptDocuments {
  private readonly kept: LRUCache<string, Kept>;
  /** Keys of documents read once and not kept (yet). */
  private readonly asked = new Set<string>();
  /** Of each kind of page, the share of its entries found kept lately. */
  private readonly shares = new Map<string, number>();

  constructor(
    private readonly capacity = KEPT_DOCUMENTS,
    private readonly freeze = true,
  ) {
    this.kept = new LRUCache({ max: Math.max(capacity, 1) });
  }

  /** The document kept under `key` at exactly these revisions. */
  find(key: string, revision: number, people: number): LoadedEntry | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined || kept.revision !== revision || kept.people !== people) return undefined;
    return kept.entry;
  }

  /**
   * Keeps `entry` under `key`, if it was asked for before: a document read once (a person stream of one
   * person after another, a deep page) would only push a read-again one out, and a kept document lives
   * long enough to cost the collector (a page read for the first time cost 0.4 ms more when all were
   * kept). A key already kept at another revision is replaced at once.
   */
  keep(key: string, revision: number, people: number, entry: LoadedEntry): void {
    if (this.capacity === 0) return;
    if (!this.kept.has(key) && !this.asked.delete(key)) {
      if (this.asked.size >= this.capacity * 2) this.asked.clear();
      this.asked.add(key);
      return;
    }
    this.kept.set(key, { revision, people, entry: this.freeze ? deepFreeze(entry) : entry });
  }

  /**
   * Whether pages of `kind` lately found most of their entries kept (a moving average of the share
   * found, starting at all of them): if not, a page reads its documents with its ids, in one statement.
   */
  likelyKept(kind: string): boolean {
    return (this.shares.get(kind) ?? 1) >= LIKELY_KEPT;
  }

  /** A page of `kind` found `found` of its `total` entries kept. */
  record(kind: string, found: number, total: number): void {
    if (total === 0) return;
    // the kinds are the code's page shapes (parts and scope), a few dozen; the guard only keeps a surprise small
    if (this.shares.size >= 1_000) this.shares.clear();
    this.shares.set(kind, (this.shares.get(kind) ?? 1) * (1 - SHARE_WEIGHT) + (found / total) * SHARE_WEIGHT);
  }

  get size(): number {
    return this.kept.size;
  }

  clear(): void {
    this.kept.clear();
    this.asked.clear();
    this.shares.clear();
  }
}

/** Freezes `value` and everything it holds: kept values are shared by every request. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
