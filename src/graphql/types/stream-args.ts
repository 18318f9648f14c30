import { DomainError } from '../../domain/errors.ts';
import { builder } from '../builder.ts';
import { typedGraphQLError } from './errors.ts';

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

/** The typed errors a stream may end with, by name (as `extensions.type`). */
export type StreamFailure = 'ValidationError' | 'NotFoundError' | 'NotAuthorizedError';

/**
 * What sets a stream apart from a field answering a result union: it answers its connection itself,
 * so that Relay's `@connection` and normalizing caches reach it, and a refused argument is a GraphQL
 * error beside a null stream. The error's `extensions` carry the typed error's fields (`type`, `code`,
 * `issues`, `resource`), and the field declares which it may be (`extensions.failures`, read by the
 * generated REST API and its OpenAPI document).
 */
export function streamField(description: string, failures: StreamFailure[]) {
  return {
    description: `${description} A refused argument answers null, with an error whose \`extensions\` name its typed error: \`type\` (${failures.map((name) => `\`${name}\``).join(', ')}), \`code\`, and that type's fields (\`issues\`, \`resource\`).`,
    nullable: true as const,
    extensions: { failures },
  };
}

/** A stream's resolver whose typed failures leave it as GraphQL errors carrying the typed error (`typedGraphQLError`). */
export function refusingAsErrors<Args extends unknown[], Result>(resolve: (...args: Args) => Promise<Result>) {
  return async (...args: Args): Promise<Result> => {
    try {
      return await resolve(...args);
    } catch (error) {
      if (error instanceof DomainError) throw typedGraphQLError(error);
      throw error;
    }
  };
}
