// What the GraphQL schema needs of the fediverse (src/federation/federation.ts makes it): this server's
// host, finding a remote account, and running queued jobs soon.
import type { RemoteActorFacts } from '../db/federation.ts';

export interface FediverseService {
  /** This server's host as handles name it (`ann@<host>`): PUBLIC_URL's host, with its port if it has one. */
  readonly host: string;
  /** The service's public origin (PUBLIC_URL). */
  readonly origin: string;
  /** A remote account by `acct:user@host` (WebFinger, then its actor) or by URL; null when none answers as one. */
  lookup(reference: string): Promise<RemoteActorFacts | null>;
  /** Runs the queued jobs soon: a mutation calls it once the write that queued them committed. */
  wake(): void;
}
