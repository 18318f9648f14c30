import type { IncomingMessage } from 'node:http';
import type { GraphQLParams } from 'graphql-yoga';
import type { Viewer } from '../auth/viewer.ts';
import type { Database, Prisma } from '../db/database.ts';
import type { EntryReader } from '../db/entry-conditions.ts';
import type { VersionRecorder } from '../db/entry-rows.ts';
import type { RemoteActorFacts } from '../db/federation.ts';
import { NotAuthorizedError } from '../domain/errors.ts';
import type { Events } from '../events/bus.ts';
import type { MailTokens } from '../mail/tokens.ts';
import type { MediaStore } from '../media/store.ts';
import type { PopularRankings } from './popular-rankings.ts';

export type { Viewer };

/** A rate-limit budget as a client may read it: requests a window, left of them, and when the window ends (epoch seconds). */
export interface RateBudget {
  limit: number;
  remaining: number;
  resetAt: number;
}

/**
 * One request as the server handles it: made at the edge when it arrives (app/edge.ts), handed down with
 * it to dispatch, to the routes (http/router.ts's RequestContext) and to yoga as its server context.
 * What one part learns of the request for another is kept here, typed, rather than in maps keyed by
 * the Request, which every copy of it (a path tidied, a body read) left behind.
 */
export interface Exchange {
  /** node:http's request, when it came through the listener (not an in-process fetch). */
  readonly req?: IncomingMessage;
  /** Whose address it came from: the socket's, or with TRUST_PROXY the one the proxies forwarded. */
  clientAddress?: string;
  /** What is left of the rate-limit budget it was counted against, and that budget's key (a batch's further operations spend it too). */
  rateLimit?: RateBudget;
  budget?: string;
  /** The athlete its log-in session names, when it runs as one without a token (GraphiQL in their browser). */
  sessionViewer?: Viewer;
  /** The app whose token it carried, once the token was checked (the request log names it). */
  clientId?: number;
  /** The pattern of the route that answered it (`/entries/:id`), for the log and the metrics. */
  route?: string;
  /** The temporary files its uploads were spooled to, removed once it is answered. */
  readonly spooled: string[];
  /** A GraphQL multipart request's operations, read at the edge with their files in place (http/multipart.ts). */
  operations?: GraphQLParams | GraphQLParams[];
}

/** A fresh exchange for a request that arrives (`req`: node's, when it came through the listener). */
export function newExchange(req?: IncomingMessage): Exchange {
  return { req, spooled: [] };
}

/** yoga's server context: the edge's exchange, or a whole Context the REST layer and the pages resolved themselves. */
export type ServerContext = Exchange | Context;

/** What the schema needs of the fediverse (src/federation/ makes it, when FEDERATION=true). */
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

export interface Context {
  readonly prisma: Prisma;
  /** The hot reads' raw statements (stream pages): see Database.read. */
  readonly read: Database['read'];
  /** Entry documents kept between stream pages (db/kept-documents.ts). */
  readonly documents: Database['documents'];
  /** People's stats, records and streaks kept between requests (db/kept-stats.ts). */
  readonly stats: Database['stats'];
  /** Which SQL dialect bulk writes speak. */
  readonly provider: 'sqlite' | 'postgresql';
  readonly viewer: Viewer | null;
  /** The client's address (behind TRUST_PROXY, the forwarded one): whose anonymous subscriptions these are. */
  readonly clientAddress?: string;
  /** The request's exchange (see Exchange), when the context was made for a request that came through the edge. */
  readonly exchange?: Exchange;
  /** What is left of the rate-limit budget the request was counted against (Query.rateLimit); absent when it was not counted here. */
  readonly rateLimit?: RateBudget;
  /** Absolute origin for the `url` fields, e.g. `https://milepost.example`. */
  readonly baseUrl: string;
  /** The popular stream's rankings, kept per moment (one per app). */
  readonly popularRankings: PopularRankings;
  /** Where uploaded photos are kept. */
  readonly media: MediaStore;
  /**
   * Mailed notifications: whether this instance sends mail (SMTP_URL), and the signer of the links mails
   * carry (verify an address, unsubscribe). Absent: no mail, and no link is genuine.
   */
  readonly mail?: { readonly sends: boolean; readonly tokens: MailTokens };
  /**
   * Whether the token (or the pages' log-in session) the request came with still works (not revoked,
   * logged out, expired, or its person suspended): a subscription over server-sent events asks every
   * TOKEN_RECHECK_MS, and ends when it does not. Absent for anyone, and over WebSocket (whose sockets are
   * checked themselves).
   */
  readonly tokenStillValid?: () => Promise<boolean>;
  /** Where mutations announce what they did, and subscriptions listen. */
  readonly events: Events;
  /** The fediverse (src/federation/), when the operator turned it on (FEDERATION=true). */
  readonly fediverse?: FediverseService;
  /** How many of the newest entries the nearby search reads before it reads the bounding box (2,000). */
  readonly nearbyProbeRows?: number;
  /** How many rows of the time index a step of the nearby search's walk reads (NEARBY_WALK_STEP, 10,000). */
  readonly nearbyWalkRows?: number;
  /** How often a subscription over server-sent events asks `tokenStillValid` (TOKEN_RECHECK_MS). */
  readonly tokenRecheckMs?: number;
  /**
   * When set, stream pages record here the version each of their entries was read at (db/entry-pages.ts):
   * the stream pages of REST and GraphQL keep each entry's JSON per version (cache/entry-fragments.ts).
   */
  readonly versionRecorder?: VersionRecorder;
  /**
   * A subscription's place in the events (events/bus.ts): `resumeAfter` is the id of the last event
   * the client saw (SSE's Last-Event-ID), `eventId` the id of the event the latest result came from.
   */
  readonly subscription?: { readonly resumeAfter: string | null; eventId: string | null };
}

/**
 * Contexts of live subscriptions (graphql/subscriptions.ts marks them): they outlive the request that
 * opened them, so what their viewer's token said then (Person.keptApart) is not trusted later.
 */
export const liveContexts = new WeakSet<Context>();

/** Tells live subscribers of the notifications an act wrote (after it committed). */
export function announce(context: Context, heard: ReadonlyArray<{ personId: number; notificationId: number }>): void {
  for (const one of heard) context.events.publish('notified', one);
}

/** The viewer, or the typed NotAuthorizedError every write answers without a token. */
export function requireViewer(context: Context): Viewer {
  if (!context.viewer) throw new NotAuthorizedError();
  return context.viewer;
}

/**
 * Whether the request reads what only `ownerId` sees (their only-me entries, private stats, privacy
 * zones, their tracks unmasked): their own token with the scope `read_all`, or their browser session.
 * An app granted `read` alone sees its person's things as a friend would.
 */
export function readsAsOwner(context: Context, ownerId: number): boolean {
  return context.viewer?.id === ownerId && context.viewer.scopes.has('read_all');
}

/** Who the request reads entries as (db/entry-conditions.ts): null without a token. */
export function readerOf(context: Context, stream: 'stream' | 'one' = 'one'): EntryReader {
  // a stream of many people's entries leaves out the ones the viewer muted; one person's, or one entry, keeps them
  return (
    context.viewer && {
      id: context.viewer.id,
      ownPrivate: context.viewer.scopes.has('read_all'),
      muting: stream === 'stream',
      // a subscription lives on past a block made meanwhile: it always looks
      keptApart: liveContexts.has(context) || context.viewer.keptApart !== false,
    }
  );
}
