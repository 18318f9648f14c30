import { builder } from '../builder.ts';

/** The paging arguments every stream takes besides the Relay cursor arguments (SPEC 4.2). */
export const streamArgs = builder.args((t) => ({
  page: t.int({ required: false, description: 'Page of 20 entries (or `first`), starting with 1.' }),
  since: t.field({ type: 'UnixTime', required: false, description: 'Only entries with `at` later than this UNIX time.' }),
  until: t.field({
    type: 'UnixTime',
    required: false,
    description: 'Only entries with `at` at or before this UNIX time: keeps a fixed starting point while paging.',
  }),
}));
