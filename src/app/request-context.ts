// One request context for every way in (GraphQL over HTTP and WebSocket, the REST paths, the pages):
// one token-to-viewer mapping and one base-URL rule (the refusal of a bad token is auth's tokenRefusal).
import { tokenFromRequest } from '../auth/tokens.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { viewerForToken, viewerOfRequest } from '../db/token-viewers.ts';
import type { Events } from '../events/bus.ts';
import type { Context, Exchange } from '../graphql/context.ts';
import { createPopularRankings } from '../graphql/popular-rankings.ts';
import { forwardedScheme } from '../http/forwarded.ts';
import { clientAddressOf } from '../http/rate-limit.ts';
import { mailTokens } from '../mail/tokens.ts';
import type { MediaStore } from '../media/store.ts';

/** The scheme of a request: its own, or what a trusted TLS proxy reports in X-Forwarded-Proto. */
export function schemeOf(request: Request, trustProxy: number): string {
  return forwardedScheme(request.headers.get('x-forwarded-proto'), trustProxy) ?? new URL(request.url).protocol.replace(':', '');
}

export interface RequestContexts {
  /** The origin clients reach us at: PUBLIC_URL, else the request's, with the scheme a trusted proxy reports. */
  baseUrl(request: Request): string;
  /** The context of a request whose viewer is already known (anonymous pages, a WebSocket's connection). */
  forViewer(request: Request, viewer: Viewer | null, clientAddress?: string): Context;
  /** The client's address: the socket's, or behind TRUST_PROXY trusted proxies the one they forwarded. */
  clientAddress(socketAddress: string | undefined, forwardedFor: string | null | undefined): string;
  /**
   * The context of a request, its token (or `formToken`, a form's oauth_token) resolved; throws a token
   * error. The app whose token it was is noted on `exchange`, for the request log.
   */
  forRequest(request: Request, formToken?: string | null, exchange?: Exchange): Promise<Context>;
}

export function createRequestContexts(
  config: Pick<Config, 'publicUrl' | 'trustProxy' | 'mail' | 'sessionSecret'>,
  database: Database,
  events: Events,
  media: MediaStore,
  tuning: Pick<Context, 'nearbyProbeRows' | 'nearbyWalkRows' | 'tokenRecheckMs' | 'fediverse'> = {},
): RequestContexts {
  const baseUrl = (request: Request): string => {
    if (config.publicUrl) return config.publicUrl;
    const url = new URL(request.url);
    const scheme = schemeOf(request, config.trustProxy);
    return scheme === 'https' || scheme === 'http' ? `${scheme}://${url.host}` : url.origin;
  };
  const popularRankings = createPopularRankings();
  const mail = { sends: config.mail !== null, tokens: mailTokens(config.sessionSecret) };
  const forViewer = (request: Request, viewer: Viewer | null, clientAddress?: string, exchange?: Exchange): Context => ({
    prisma: database.prisma,
    clientAddress,
    read: database.read,
    documents: database.documents,
    stats: database.stats,
    provider: database.provider,
    viewer,
    exchange,
    baseUrl: baseUrl(request),
    events,
    media,
    popularRankings,
    mail,
    subscription: { resumeAfter: request.headers?.get('last-event-id') ?? null, eventId: null },
    ...tuning,
  });
  return {
    baseUrl,
    forViewer,
    clientAddress: (socketAddress, forwardedFor) => clientAddressOf(socketAddress ?? 'local', forwardedFor ?? null, config.trustProxy),
    forRequest: async (request, formToken = null, exchange) => {
      const viewer = await viewerOfRequest(database, request, formToken);
      if (exchange && viewer?.clientId != null) exchange.clientId = viewer.clientId;
      const token = viewer && tokenFromRequest(request, formToken);
      const context = forViewer(request, viewer, undefined, exchange);
      // a subscription over server-sent events outlives this check: it asks again while it lives
      return token ? { ...context, tokenStillValid: async () => (await viewerForToken(database, token)) !== null } : context;
    },
  };
}
