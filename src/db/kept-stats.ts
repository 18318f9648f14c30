// A person's stats, records and streak kept between requests: what the aggregate reads of db/stats.ts
// answered, kept per person, reader and question, at the person's `statsRevision`. Triggers move that
// revision on every write that changes what those reads count (the person's entries, workouts, tracks
// and best efforts, friendships and blocks: prisma/migrations/*_stats_revision), whichever process or
// command wrote, so a page reads them again only after such a change, however many times it is viewed.
// A reader is part of the key: anyone, the person (with or without their only-me entries), or one
// signed-in reader (friends and blocks differ), and the version of the person's privacy settings whose
// shown figures stand in for their tracks.
import { LRUCache } from 'lru-cache';
import { deepFreeze } from './kept-documents.ts';

/** Who reads (db/stats.ts's StatsReader, as far as its answers differ by it). */
export interface KeptStatsReader {
  entries: { id: number; ownPrivate: boolean } | null;
  shownVersion: number | null;
}

/** Answers kept per process: a person page keeps four (weeks, records, climbs, workout days). */
export const KEPT_STATS = 4_000;

interface Kept {
  revision: number;
  value: Promise<unknown>;
}

export class KeptStats {
  private readonly kept: LRUCache<string, Kept>;

  constructor(capacity = KEPT_STATS) {
    this.kept = new LRUCache({ max: Math.max(capacity, 1) });
  }

  /**
   * The answer to `question` about the person for this reader, as kept at `revision` or later, else
   * `read` (once, however many ask at a time) and kept. A request that read the revision before a write
   * may get the answer read after it: never one older than what it read. Answers are frozen: every
   * reader of the same key shares them. A failed read is not kept.
   */
  keep<T>(personId: number, revision: number, reader: KeptStatsReader, question: string, read: () => Promise<T>): Promise<T> {
    const key = `${personId}|${readerKey(personId, reader)}|${question}`;
    const kept = this.kept.get(key);
    if (kept !== undefined && kept.revision >= revision) return kept.value as Promise<T>;
    const value = read().then(deepFreeze);
    this.kept.set(key, { revision, value });
    value.catch(() => {
      if (this.kept.peek(key)?.value === value) this.kept.delete(key);
    });
    return value;
  }

  clear(): void {
    this.kept.clear();
  }
}

/** Whose view of the person's workouts an answer is: the same for every reader with this key. */
function readerKey(personId: number, { entries, shownVersion }: KeptStatsReader): string {
  const who = entries === null ? 'anyone' : entries.id === personId ? (entries.ownPrivate ? 'own+private' : 'own') : `reader${entries.id}`;
  return `${who}@${shownVersion ?? 'whole'}`;
}
