// What the fediverse may be shown, read through the GraphQL schema as an anonymous reader sees it: the
// one gate of privacy decides what leaves (an entry for friends or only-me is null here, as for anyone
// logged out). The documents (src/operations/federation.graphql) ask for no place, position or track.
import type { Viewer } from '../auth/viewer.ts';
import type { Context } from '../graphql/context.ts';
import {
  FederationActorDocument,
  type FederationActorQuery,
  FederationEntryDocument,
  type FederationNoteFragment,
  FederationOutboxDocument,
} from '../operations/generated.ts';
import type { RunOperation } from '../rest/execute.ts';
import { RefusedArgument } from './gate.ts';

export type PublicActor = NonNullable<FederationActorQuery['person']>;
export type PublicNote = FederationNoteFragment;

export interface FediverseReader {
  /** The athlete as anyone sees them; null for nobody, a suspended account, or one out of the fediverse. */
  actor(username: string): Promise<PublicActor | null>;
  /** The entry as anyone sees it; null when it is not public, or its author is out of the fediverse. */
  entry(id: number): Promise<PublicNote | null>;
  /** A page of the athlete's public entries, newest first. */
  outbox(username: string, after: string | null): Promise<{ notes: PublicNote[]; next: string | null } | null>;
}

export function createReader(
  run: RunOperation,
  origin: string,
  contextOf: (request: Request, viewer: Viewer | null) => Context,
): FediverseReader {
  const anonymous = () => {
    const request = new Request(`${origin}/`);
    return { request, context: contextOf(request, null) };
  };
  const refuse = (errors: readonly { message: string }[] | undefined) => {
    if (errors?.length) throw new Error(`federation read failed: ${errors[0]!.message}`);
  };
  return {
    async actor(username) {
      const { request, context } = anonymous();
      const { data, errors } = await run(FederationActorDocument, request, context, { username });
      refuse(errors);
      const person = data?.person ?? null;
      return person?.fediverseHandle ? person : null;
    },
    async entry(id) {
      const { request, context } = anonymous();
      const { data, errors } = await run(FederationEntryDocument, request, context, { id: String(id) });
      refuse(errors);
      const entry = data?.entry ?? null;
      return entry?.author.fediverseHandle ? entry : null;
    },
    async outbox(username, after) {
      const { request, context } = anonymous();
      const { data, errors } = await run(FederationOutboxDocument, request, context, { username, after });
      // a cursor no page has: the reader's mistake, not the service's
      if (errors?.some((error) => error.extensions?.type === 'ValidationError' || /cursor/i.test(error.message)))
        throw new RefusedArgument('cursor', 'is not a cursor of this outbox: start from the collection’s `first` page');
      refuse(errors);
      const person = data?.person;
      if (!person?.fediverseHandle) return null;
      const { edges, pageInfo } = person.entries;
      return { notes: edges.map((edge) => edge.node), next: pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null };
    },
  };
}
