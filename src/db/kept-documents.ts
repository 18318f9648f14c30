// Entry documents kept between requests (issue 18): the part of a stream page that is the same for
// every viewer (an entry with its author, workout, comments with their authors, likes with their
// people). A page reads its entries' ids and revisions, takes the documents it keeps at those
// revisions, and reads only the others. Triggers move an entry's revision on every write to it, its
// workout, comments or likes, and one revision for all people whenever a column a page shows of a
// person, or their privacy settings, changes (prisma/migrations/*_entry_revisions): whichever process
// or command wrote, the next page sees it. Viewers still see only what they may: visibility is
// applied to the ids, not kept.
import type { LoadedEntry } from './entry-pages.ts';

/** Documents kept per process by default: about 3 KB each for a page's usual entry. */
export const KEPT_DOCUMENTS = 5_000;

interface Kept {
  revision: number;
  people: number;
  entry: LoadedEntry;
}

/**
 * A bounded map of documents, least recently used out first. Kept documents are frozen: every request
 * shares them, so a resolver that changed one would change other viewers' answers.
 */
export class KeptDocuments {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly capacity = KEPT_DOCUMENTS) {}

  /** The document kept under `key` at exactly these revisions. */
  find(key: string, revision: number, people: number): LoadedEntry | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined || kept.revision !== revision || kept.people !== people) return undefined;
    // most recently used goes last
    this.kept.delete(key);
    this.kept.set(key, kept);
    return kept.entry;
  }

  keep(key: string, revision: number, people: number, entry: LoadedEntry): void {
    if (this.capacity === 0) return;
    this.kept.delete(key);
    if (this.kept.size >= this.capacity) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { revision, people, entry: deepFreeze(entry) });
  }

  get size(): number {
    return this.kept.size;
  }

  clear(): void {
    this.kept.clear();
  }
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
