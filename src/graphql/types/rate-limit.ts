// The client's rate-limit budget, as GitHub's `rateLimit` answers it: a single-page app reads what is
// left before it runs out, rather than learning it from a refusal.

import { builder } from '../builder.ts';
import type { RateBudget } from '../context.ts';

const RateLimitRef = builder.objectRef<RateBudget>('RateLimit').implement({
  description:
    'The budget of requests this one was counted against: its token’s, or without one its address’s. Every answer carries the same in `X-RateLimit-*` headers. Over it, `/graphql` answers 429 with an error whose `extensions` hold `code: RATE_LIMITED` and `retryAfter` (seconds), and a WebSocket is closed with 4429.',
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'Requests allowed in a window.' }),
    remaining: t.exposeInt('remaining', { description: 'Requests left in the current window, this one counted.' }),
    resetAt: t.field({
      type: 'DateTime',
      description: 'When the current window ends and the budget is whole again.',
      resolve: (budget) => new Date(budget.resetAt * 1000),
    }),
  }),
});

builder.queryField('rateLimit', (t) =>
  t.field({
    type: RateLimitRef,
    nullable: true,
    description:
      'What is left of the rate limit this request was counted against; null where it is not counted per request (over a WebSocket, whose connection was).',
    resolve: (_root, _args, context) => context.rateLimit ?? null,
  }),
);
