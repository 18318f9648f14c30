// GraphQL over WebSocket (graphql-ws) at /graphql, on the HTTP server's own port. Operations run
// through yoga's envelop, so they get the same schema, plugins, limits and context as HTTP.
// graphql-ws itself enforces the protocol: 4406 wrong subprotocol, 4401 subscribe before init,
// 4408 init timeout, 4429 second init, 4400 invalid message, 4409 duplicate id, ping → pong.
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { type ExecutionArgs, GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { tokenFromHeader } from '../auth/tokens.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { Database } from '../db/database.ts';
import { viewerForToken } from '../db/token-viewers.ts';
import type { Context } from '../graphql/context.ts';
import { TOKEN_RECHECK_MS } from '../graphql/subscriptions.ts';
import { isValidHost } from '../http/host.ts';
import type { App } from './server.ts';

/** Past this many unsent bytes a client is not reading: it is disconnected rather than buffered for. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** How often live sockets re-check their token, so that revoking it ends them: as often as SSE subscriptions do. */
export { TOKEN_RECHECK_MS };
/**
 * Operations one socket may hold at once: one socket holding 20,000 made a single post take 25 s. What
 * one athlete (or, without a token, one address) holds over all their sockets and server-sent event
 * streams is capped where every subscription starts (graphql/subscription-caps.ts).
 */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 32;

type Extra = {
  socket: WebSocket;
  request: import('node:http').IncomingMessage;
  viewer?: Viewer | null;
  token?: string | null;
};

type Enveloped = ReturnType<App['yoga']['getEnveloped']>;

export function attachWebSocket(
  server: HttpServer | HttpsServer,
  app: App,
  database: Database,
  options: { tokenRecheckMs?: number; maxBufferedBytes?: number; maxPerSocket?: number } = {},
) {
  const maxBuffered = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  // no request URL can be made of an invalid Host (http/host.ts): refused at the upgrade
  const wss = new WebSocketServer({
    server,
    path: '/graphql',
    maxPayload: 1024 * 1024,
    verifyClient: (info: { req: import('node:http').IncomingMessage }) => isValidHost(info.req.headers.host ?? 'localhost'),
  });
  const sockets = new Map<WebSocket, string>();
  const limits = socketLimits(options.maxPerSocket ?? MAX_SUBSCRIPTIONS_PER_SOCKET);

  // a token the database cannot be asked about (it is away) is asked again next time: the socket stays,
  // and a failed read is no unhandled rejection, which would end the process
  const recheckTokens = async () => {
    for (const [socket, token] of sockets) {
      const viewer = await viewerForToken(database, token).catch(() => undefined);
      if (viewer === null) socket.close(4403, 'Forbidden: the access token was revoked');
    }
  };
  const recheck = setInterval(() => void recheckTokens(), options.tokenRecheckMs ?? TOKEN_RECHECK_MS);
  recheck.unref();

  const disposable = useServer<Record<string, unknown>, Extra>(
    {
      connectionInitWaitTimeout: 3_000,
      onConnect: (ctx) => connect(app, database, sockets, ctx),
      onSubscribe: async (ctx, id, payload) => {
        const decision = await app.rateLimit(ctx.extra.token ?? null, ctx.extra.request.socket.remoteAddress ?? 'unknown');
        if (!decision.allowed) {
          ctx.extra.socket.close(4429, `Rate limit exceeded; retry in ${decision.retryAfter} s`);
          return [];
        }
        // held from here (messages arrive together: counted before any await) until it completes or the socket closes
        const refusal = limits.take(ctx.extra.socket, id);
        if (refusal) return [new GraphQLError(refusal, { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } })];
        try {
          const prepared = await prepare(app, ctx, payload);
          if (Array.isArray(prepared)) limits.release(ctx.extra.socket, id);
          return prepared;
        } catch (error) {
          // a document that does not parse, or is over a limit: an `error` message for this id alone.
          // Thrown, graphql-ws would close the socket (4500), ending every other operation on it.
          limits.release(ctx.extra.socket, id);
          return [refusalOf(error, app)];
        }
      },
      execute: (args) => answering(() => (args.rootValue as Enveloped).execute(args), app),
      subscribe: (args) => answering(() => (args.rootValue as Enveloped).subscribe(args), app),
      onNext: (ctx) => {
        if (ctx.extra.socket.bufferedAmount > maxBuffered) ctx.extra.socket.close(4413, 'Too slow: the client is not reading its messages');
      },
      onComplete: (ctx, id) => {
        limits.release(ctx.extra.socket, id);
      },
      onClose: (ctx) => {
        sockets.delete(ctx.extra.socket);
        limits.releaseAll(ctx.extra.socket);
      },
    },
    wss,
  );

  releaseOnComplete(wss, limits);

  return {
    close: async () => {
      clearInterval(recheck);
      for (const client of wss.clients) client.close(1001, 'Going away');
      await disposable.dispose();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

/**
 * Accepts a connection: its token (connection params or the upgrade's header, not two different ones)
 * within the rate limit (over it, closed with 4429), and known; an unknown or revoked token is refused
 * (4403), never downgraded to anonymous. A socket with a token is remembered, to be closed when the token is revoked.
 */
async function connect(
  app: App,
  database: Database,
  sockets: Map<WebSocket, string>,
  ctx: { connectionParams?: Readonly<Record<string, unknown>>; extra: Extra },
): Promise<boolean> {
  const fromParams = ctx.connectionParams?.oauth_token;
  const fromHeader = tokenFromHeader(ctx.extra.request.headers.authorization);
  if (typeof fromParams === 'string' && fromHeader && fromParams !== fromHeader) return false;
  const token = typeof fromParams === 'string' ? fromParams : (fromHeader ?? null);
  const address = ctx.extra.request.socket.remoteAddress ?? 'unknown';
  const decision = await app.rateLimit(token, address);
  // a code of its own: 4403 tells a client its token is bad, and it would log its person out
  if (!decision.allowed) {
    ctx.extra.socket.close(4429, `Too many requests: retry in ${decision.retryAfter} s`);
    return false;
  }
  const viewer = token ? await viewerForToken(database, token) : null;
  if (token && !viewer) return false;
  ctx.extra.viewer = viewer;
  ctx.extra.token = token;
  if (token) sockets.set(ctx.extra.socket, token);
  return true;
}

/** The execution of one operation, or the errors that refuse it. */
async function prepare(
  app: App,
  ctx: { extra: Extra },
  payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null },
) {
  // the upgrade request as the fetch API sees a request, so that the one base-URL rule applies
  const upgrade = ctx.extra.request;
  const scheme = (upgrade.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const headers = new Headers();
  for (const [name, value] of Object.entries(upgrade.headers)) if (typeof value === 'string') headers.set(name, value);
  const request = new Request(`${scheme}://${upgrade.headers.host ?? 'localhost'}/graphql`, { headers });
  const clientAddress = app.contexts.clientAddress(upgrade.socket.remoteAddress, headers.get('x-forwarded-for'));
  const context: Context = app.contexts.forViewer(request, ctx.extra.viewer ?? null, clientAddress);
  // `params` as yoga's HTTP path gives them to plugins (the metrics plugin reads the operation name)
  const params = {
    query: payload.query,
    operationName: payload.operationName ?? undefined,
    variables: payload.variables ?? undefined,
  };
  const enveloped: Enveloped = app.yoga.getEnveloped({ request, params, ...context } as never);
  const document = enveloped.parse(payload.query);
  const args: ExecutionArgs & { rootValue: Enveloped } = {
    schema: enveloped.schema,
    operationName: payload.operationName ?? null,
    document,
    variableValues: payload.variables ?? null,
    contextValue: await enveloped.contextFactory(),
    rootValue: enveloped,
  };
  const errors = enveloped.validate(args.schema, args.document);
  if (errors.length) return errors;
  return args;
}

/** A failure of one operation as its own answer: a GraphQL error as it is, anything else masked (and logged). */
function refusalOf(error: unknown, app: App): GraphQLError {
  if (error instanceof GraphQLError) return error;
  app.logger.error({ err: error }, 'a WebSocket operation failed');
  return new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** Runs an operation; one that throws (it should answer errors) answers them instead of closing the socket. */
async function answering<T>(run: () => T | Promise<T>, app: App): Promise<T | { errors: GraphQLError[] }> {
  try {
    return await run();
  } catch (error) {
    return { errors: [refusalOf(error, app)] };
  }
}

/** A client's `complete` frees its place at once: the operation's own end waits for its next event. */
function releaseOnComplete(wss: WebSocketServer, limits: ReturnType<typeof socketLimits>): void {
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      if (String(data).length > 200) return;
      try {
        const message = JSON.parse(String(data)) as { type?: unknown; id?: unknown };
        if (message.type === 'complete' && typeof message.id === 'string') limits.release(socket, message.id);
      } catch {
        // graphql-ws answers a message it cannot read (4400)
      }
    });
  });
}

/** What each socket holds of operations. */
function socketLimits(perSocket: number) {
  const held = new Map<WebSocket, Set<string>>();
  const release = (socket: WebSocket, id: string) => {
    const ids = held.get(socket);
    if (!ids?.delete(id)) return;
    if (ids.size === 0) held.delete(socket);
  };
  return {
    /** Holds a place for operation `id`, or answers why there is none. */
    take(socket: WebSocket, id: string): string | null {
      const ids = held.get(socket) ?? new Set<string>();
      if (ids.has(id)) return null;
      if (ids.size >= perSocket) return `at most ${perSocket} operations at once on one connection; complete one first`;
      ids.add(id);
      held.set(socket, ids);
      return null;
    },
    release,
    releaseAll(socket: WebSocket) {
      held.delete(socket);
    },
  };
}
