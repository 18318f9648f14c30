// The popular stream's rankings, kept per process between requests: the context of every request
// holds the one store.
import { LRUCache } from 'lru-cache';

/** Rankings of the popular stream kept, by moment: the current hour's, and a few pinned by `until`. */
const RANKINGS_KEPT = 16;

/**
 * The popular stream's rankings, computed once per moment and window. A ranking counts only what
 * happened before its moment, so it holds for as long as that moment is asked for: scoring a week
 * of entries (about 20 ms for 6,000 of them on SQLite) is done once an hour, not on every page.
 * Concurrent first readers share one computation. An entry deleted since is left out of its page.
 */
export interface PopularRankings {
  ranking(key: string, compute: () => Promise<number[]>): Promise<number[]>;
}

export function createPopularRankings(): PopularRankings {
  const kept = new LRUCache<string, Promise<number[]>>({ max: RANKINGS_KEPT });
  return {
    ranking(key, compute) {
      let ranking = kept.get(key);
      if (!ranking) {
        ranking = compute();
        // a failed computation is not kept: the next reader tries again
        ranking.catch(() => kept.peek(key) === ranking && kept.delete(key));
        kept.set(key, ranking);
      }
      return ranking;
    },
  };
}
