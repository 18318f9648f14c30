// Batched look-ups shared by every field of one operation. People appear all over a stream page
// (authors, commenters, likers); one loader fetches all of them in one query, once the page's
// entries, comments and likes are known.
import DataLoader from 'dataloader';
import type { Context } from './context.ts';

type PersonRow = Awaited<ReturnType<Context['prisma']['person']['findUniqueOrThrow']>>;

const people = new WeakMap<Context, DataLoader<number, PersonRow>>();

/** The person with this id, fetched with every other person asked for in the same tick. */
export function personById(context: Context, id: number): Promise<PersonRow> {
  let loader = people.get(context);
  if (!loader) {
    loader = new DataLoader(
      async (ids) => {
        const rows = await context.prisma.person.findMany({ where: { id: { in: [...new Set(ids)] } } });
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? new Error(`person ${id} does not exist`));
      },
      // a subscription keeps its context for every event: nothing is remembered between batches, so
      // a renamed person shows their new name in the next event
      { cache: false, maxBatchSize: 500 },
    );
    people.set(context, loader);
  }
  return loader.load(id);
}
