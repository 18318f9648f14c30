// GraphQL over WebSocket (graphql-ws) at /graphql, on the HTTP server's own port. Operations run
// through yoga's envelop, so they get the same schema, plugins, limits and context as HTTP.
// graphql-ws itself enforces the protocol: 4406 wrong subprotocol, 4401 subscribe before init,
// 4408 init timeout, 4429 second init, 4400 invalid message, 4409 duplicate id, ping → pong.
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { tokenFromHeader, viewerForToken } from '../auth/tokens.ts';
import type { Database } from '../db/database.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { Context } from '../graphql/context.ts';
import type { App } from './server.ts';

/** Past this many unsent bytes a client is not reading: it is disconnected rather than buffered for. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** How often live sockets re-check their token, so that revoking it ends them. */
export const TOKEN_RECHECK_MS = 5_000;

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
  options: { tokenRecheckMs?: number; maxBufferedBytes?: number } = {},
) {
  const maxBuffered = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: 1024 * 1024 });
  const sockets = new Map<WebSocket, string>();

  const recheck = setInterval(async () => {
    for (const [socket, token] of sockets) {
      if (!(await viewerForToken(database, token))) socket.close(4403, 'Forbidden: the access token was revoked');
    }
  }, options.tokenRecheckMs ?? TOKEN_RECHECK_MS);
  recheck.unref();

  const disposable = useServer<Record<string, unknown>, Extra>(
    {
      connectionInitWaitTimeout: 3_000,
      onConnect: async (ctx) => {
        const fromParams = ctx.connectionParams?.oauth_token;
        const fromHeader = tokenFromHeader(ctx.extra.request.headers.authorization);
        if (typeof fromParams === 'string' && fromHeader && fromParams !== fromHeader) return false;
        const token = typeof fromParams === 'string' ? fromParams : (fromHeader ?? null);
        const address = ctx.extra.request.socket.remoteAddress ?? 'unknown';
        const decision = await app.rateLimit(token, address);
        if (!decision.allowed) return false;
        const viewer = token ? await viewerForToken(database, token) : null;
        // an unknown or revoked token is refused (4403), never downgraded to anonymous
        if (token && !viewer) return false;
        ctx.extra.viewer = viewer;
        ctx.extra.token = token;
        if (token) sockets.set(ctx.extra.socket, token);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const decision = await app.rateLimit(ctx.extra.token ?? null, ctx.extra.request.socket.remoteAddress ?? 'unknown');
        if (!decision.allowed) {
          ctx.extra.socket.close(4429, `Rate limit exceeded; retry in ${decision.retryAfter} s`);
          return [];
        }
        // the upgrade request as the fetch API sees a request, so that the one base-URL rule applies
        const upgrade = ctx.extra.request;
        const scheme = (upgrade.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
        const headers = new Headers();
        for (const [name, value] of Object.entries(upgrade.headers)) if (typeof value === 'string') headers.set(name, value);
        const request = new Request(`${scheme}://${upgrade.headers.host ?? 'localhost'}/graphql`, { headers });
        const context: Context = app.contexts.forViewer(request, ctx.extra.viewer ?? null);
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
      },
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onNext: (ctx) => {
        if (ctx.extra.socket.bufferedAmount > maxBuffered) ctx.extra.socket.close(4413, 'Too slow: the client is not reading its messages');
      },
      onClose: (ctx) => {
        sockets.delete(ctx.extra.socket);
      },
    },
    wss,
  );

  return {
    close: async () => {
      clearInterval(recheck);
      for (const client of wss.clients) client.close(1001, 'Going away');
      await disposable.dispose();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}
