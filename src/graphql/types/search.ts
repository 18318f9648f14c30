// Search: people by their names, entries by their words (domain/search.ts for the query's rules,
// db/people-search.ts and db/entry-conditions.ts for the indexes). An entry is found only where the
// viewer may see it: the search is a stream with one more condition, under the streams' visibility rule.
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { countPeopleMatching, searchPersonIds } from '../../db/people-search.ts';
import { usernameKey } from '../../domain/accounts.ts';
import { QUERY_MAX, searchTerms, TERM_MIN } from '../../domain/search.ts';
import { builder } from '../builder.ts';
import { searchStream } from '../streams.ts';
import { EntryConnection, EntryRef } from './entry.ts';
import { PersonConnection, PersonRef } from './person.ts';
import { refusingAsErrors, streamArgs, streamField } from './stream-args.ts';

const QUERY_RULES = `Words of at least ${TERM_MIN} letters or digits, each matched as the start of a word, all of them required, in any letter case and with or without accents; at most ${QUERY_MAX} characters.`;

/** People a page of search holds at most. */
const PEOPLE_PAGE = { defaultSize: 20, maxSize: 50 };

builder.queryFields((t) => ({
  searchPeople: t.connection(
    {
      type: PersonRef,
      ...streamField(
        `People whose username or display name hold the words of \`query\` (but for those who blocked the viewer), best first: the person whose username it is, then the closest matches. ${PEOPLE_PAGE.defaultSize} a page, \`first\` at most ${PEOPLE_PAGE.maxSize}.`,
        ['ValidationError'],
      ),
      args: { query: t.arg.string({ required: true, description: QUERY_RULES }) },
      resolve: refusingAsErrors(async (_root, args, context) => {
        const terms = searchTerms(args.query);
        const key = usernameKey(args.query.trim().replace(/^@/, ''));
        const page = await resolveOffsetConnection({ args, ...PEOPLE_PAGE }, async ({ limit, offset }) => {
          const ids = await searchPersonIds(context, terms, key, { limit, offset, viewerId: context.viewer?.id ?? null });
          const people = await context.prisma.person.findMany({ where: { id: { in: ids } } });
          const byId = new Map(people.map((person) => [person.id, person]));
          return ids.flatMap((id) => byId.get(id) ?? []);
        });
        return { ...page, totalCount: () => countPeopleMatching(context, terms, context.viewer?.id ?? null) };
      }),
    },
    PersonConnection,
  ),
  searchEntries: t.connection(
    {
      type: EntryRef,
      ...streamField(
        'Entries whose message or workout title hold the words of `query`, among those the viewer may see, newest first, 20 a page (paged as the streams are).',
        ['ValidationError'],
      ),
      args: { query: t.arg.string({ required: true, description: QUERY_RULES }), ...streamArgs },
      resolve: refusingAsErrors((_root, args, context, info) => searchStream(context, info, searchTerms(args.query), args)),
    },
    EntryConnection,
  ),
}));
