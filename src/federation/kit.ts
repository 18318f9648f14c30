// What every part of the fediverse shares: the database, this server's origin, the schema's reads, the
// athletes who are in the fediverse, and remote accounts as the database keeps them.
import { type Object as APObject, isActor, type Recipient } from '@fedify/vocab';
import type { Prisma } from '../db/database.ts';
import { isBlockedHost, type RemoteActorFacts, readPersonSettings } from '../db/federation.ts';
import type { Logger } from '../log.ts';
import type { FediverseReader } from './reader.ts';

export type FederatedPerson = NonNullable<Awaited<ReturnType<typeof readPersonSettings>>>;

export interface FediverseKit {
  prisma: Prisma;
  /** This server's public origin (PUBLIC_URL). */
  origin: URL;
  logger: Pick<Logger, 'error' | 'warn' | 'info'>;
  /** The schema's reads, as anyone sees them (bound once the GraphQL server exists). */
  read(): FediverseReader;
  /** An athlete in the fediverse by username (any case); null for nobody, a suspended one, or one who keeps out. */
  federatedPerson(username: string): Promise<FederatedPerson | null>;
}

export function createKit(prisma: Prisma, origin: URL, logger: FediverseKit['logger'], reader: () => FediverseReader | null): FediverseKit {
  return {
    prisma,
    origin,
    logger,
    read() {
      const bound = reader();
      if (!bound) throw new Error('the fediverse reads before the schema is bound');
      return bound;
    },
    async federatedPerson(username) {
      const person = await readPersonSettings(prisma, username);
      return person && !person.fediverseOptOut && !person.suspendedAt ? person : null;
    },
  };
}

/** A recipient known only by its stored actor id and inbox (a follower removed, an account unfollowed). */
export const recipient = (uri: string, inbox: string): Recipient => ({ id: new URL(uri), inboxId: new URL(inbox) });

/** A follow either way as a job reads it: its id, the athlete here, the remote account. */
export const FOLLOW_ROW = {
  followId: true,
  person: { select: { username: true } },
  actor: { select: { uri: true, inbox: true } },
} as const;

/** What the database keeps of a remote actor; null when `object` is no actor, or its server is blocked. */
export async function actorFacts(prisma: Prisma, object: APObject | null): Promise<RemoteActorFacts | null> {
  if (!object || !isActor(object) || !object.id || !object.inboxId) return null;
  if (await isBlockedHost(prisma, object.id.host)) return null;
  return {
    uri: object.id.href,
    handle: `${object.preferredUsername ?? object.id.pathname.split('/').at(-1)}@${object.id.host}`.slice(0, 300),
    host: object.id.host,
    name: object.name?.toString().slice(0, 200) ?? null,
    url: object.url instanceof URL ? object.url.href : null,
    inbox: object.inboxId.href,
    sharedInbox: object.endpoints?.sharedInbox?.href ?? null,
  };
}
