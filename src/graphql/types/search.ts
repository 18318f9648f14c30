// Search: people by their names, entries by their words, and people the viewer may know (domain/search.ts for the query's rules,
// db/people-search.ts and db/entry-conditions.ts for the indexes). An entry is found only where the
// viewer may see it: the search is a stream with one more condition, under the streams' visibility rule.
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { countPeopleMatching, searchPersonIds } from '../../db/people-search.ts';
import { NEAR_MILES, type Suggestion, suggestPeople } from '../../db/suggestions.ts';
import { usernameKey } from '../../domain/accounts.ts';
import { ValidationError } from '../../domain/errors.ts';
import { QUERY_MAX, searchTerms, TERM_MIN } from '../../domain/search.ts';
import type { Person } from '../../generated/prisma-sqlite/client.ts';
import { builder } from '../builder.ts';
import { requireViewer } from '../context.ts';
import { entryPlaceHidden, privacyFor } from '../privacy.ts';
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

const SuggestionReasonEnum = builder.enumType('SuggestionReason', {
  description: 'Why a person is suggested.',
  values: {
    FRIEND_OF_FRIEND: {
      value: 'friendOfFriend' as const,
      description: 'A friend of one or more of the viewer’s friends (`mutualFriends`).',
    },
    COMMENTS_ON_YOURS: { value: 'commentsOnYours' as const, description: 'Commented on the viewer’s entries in the last 90 days.' },
    ACTIVE_NEARBY: {
      value: 'activeNearby' as const,
      description: `Posted in public within ${NEAR_MILES} miles of the viewer’s latest entry with a place, in the last 30 days.`,
    },
    ACTIVE_LATELY: {
      value: 'activeLately' as const,
      description: 'Among those who posted the most in public in the last 14 days: how someone with no friends yet meets people.',
    },
  },
});

const PersonSuggestion = builder.objectRef<Suggestion & { person: Person }>('PersonSuggestion').implement({
  description: 'Someone the viewer may know, and why.',
  fields: (t) => ({
    person: t.field({ type: PersonRef, description: 'The person.', resolve: (suggestion) => suggestion.person }),
    mutualFriends: t.exposeInt('mutualFriends', { description: 'Friends the viewer and the person share.' }),
    reasons: t.field({ type: [SuggestionReasonEnum], description: 'Why, strongest first.', resolve: (suggestion) => suggestion.reasons }),
  }),
});

/** Suggestions a request may ask for at most. */
const SUGGESTIONS_MAX = 50;

builder.queryFields((t) => ({
  suggestedPeople: t.field({
    type: [PersonSuggestion],
    ...streamField(
      `People the viewer may know: friends of their friends, people who commented on their entries, people active near them, then people active lately. Never a friend, anyone a friend request waits on, nor anyone on either side of a block. \`first\`: 10 by default, at most ${SUGGESTIONS_MAX}. Needs an access token.`,
      ['ValidationError', 'NotAuthorizedError'],
    ),
    args: { first: t.arg.int({ description: `How many, 1 to ${SUGGESTIONS_MAX}; 10 by default.` }) },
    resolve: refusingAsErrors(async (_root, args, context) => {
      const viewer = requireViewer(context);
      const first = args.first ?? 10;
      if (!Number.isInteger(first) || first < 1 || first > SUGGESTIONS_MAX)
        throw ValidationError.field('first', `must be a whole number from 1 to ${SUGGESTIONS_MAX}`);
      // a position counts as it is shown to this viewer: never one inside its author's zone or by a hidden track end
      const suggestions = await suggestPeople(
        context,
        viewer.id,
        first,
        async (entry) => !(await entryPlaceHidden(context, entry, entry, await privacyFor(context, entry.authorId))),
      );
      const people = await context.prisma.person.findMany({ where: { id: { in: suggestions.map((s) => s.personId) } } });
      const byId = new Map(people.map((person) => [person.id, person]));
      return suggestions.flatMap((suggestion) => {
        const person = byId.get(suggestion.personId);
        return person ? [{ ...suggestion, person }] : [];
      });
    }),
  }),
}));
