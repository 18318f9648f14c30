// A route table: method + path pattern → handler. A path that exists under other methods answers 405
// with `Allow` (SPEC 7), so every route added here gets that for free.

// whatwg-node's Response: node:http gets a string body in one write, not through a web stream
import { Response } from '@whatwg-node/fetch';
import type { Exchange } from '../graphql/context.ts';
import { BodyTooLargeError, discardRest, hasNul, MalformedBodyError, readLimitedText } from './body.ts';
import type { Markup } from './html.ts';
import { readMultipartForm } from './multipart.ts';

export interface RequestContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  /** The path's extension (`json`, `gpx`) when the router was given one apart from the path. */
  extension: string | null;
  /** The peer's address, for throttling; `local` for in-process requests. */
  clientAddress: string;
  /** What the server knows of this request besides (graphql/context.ts): a route's handler notes there what it learns. */
  exchange: Exchange;
}

export type Handler = (context: RequestContext) => Promise<Response> | Response;

interface Route {
  method: string;
  path: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

function compile(path: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-zA-Z]+)/g, (_m, key: string) => {
    keys.push(key);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}$`), keys };
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, path: string, handler: Handler): this {
    this.routes.push({ method, path, ...compile(path), handler });
    return this;
  }

  get(path: string, handler: Handler) {
    return this.add('GET', path, handler);
  }

  post(path: string, handler: Handler) {
    return this.add('POST', path, handler);
  }

  /** The pattern of the first route whose path matches `pathname`, whatever its method. */
  patternFor(pathname: string): string | undefined {
    return this.routes.find((route) => route.pattern.test(pathname))?.path;
  }

  /**
   * The response, or null when no route has this path; the pattern that matched is noted on `exchange`
   * (for the log and the metrics). `path` overrides the URL's (extension removed).
   */
  async handle(
    request: Request,
    exchange: Exchange,
    clientAddress: string,
    path?: { pathname: string; extension: string | null },
  ): Promise<Response | null> {
    const url = new URL(request.url);
    const pathname = path?.pathname ?? url.pathname;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      if (route.method !== method) {
        allowed.add(route.method);
        exchange.route = route.path;
        continue;
      }
      const params = decodeParams(route.keys, match);
      // a malformed escape (`%ff`) names nothing that exists
      if (!params) return null;
      exchange.route = route.path;
      return route.handler({ request, url, params, clientAddress, extension: path?.extension ?? null, exchange });
    }
    if (allowed.size === 0) return null;
    const allow = [...allowed, ...(allowed.has('GET') ? ['HEAD'] : [])].join(', ');
    return jsonResponse(
      405,
      { error: { code: 'METHOD_NOT_ALLOWED', message: `${request.method} is not allowed on ${url.pathname}; use ${allow}` } },
      { allow },
    );
  }
}

function decodeParams(keys: string[], match: RegExpExecArray): Record<string, string> | null {
  try {
    return Object.fromEntries(keys.map((key, i) => [key, decodeURIComponent(match[i + 1]!)]));
  } catch {
    return null;
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** The one error body of every JSON answer Milepost gives: `{"error": {"code", "message", …}}`. */
export function errorBody(code: string, message: string, more: Record<string, unknown> = {}) {
  return { error: { code, message, ...more } };
}

export function errorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, errorBody(code, message), headers);
}

export function htmlResponse(status: number, page: Markup, headers: Record<string, string> = {}, setCookies: string[] = []): Response {
  const response = new Response(page.toString(), {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // pages carry forms with secrets (client secrets, CSRF tokens): never cache, never frame
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
      // OAuth pages carry codes and state in their URLs: never send them on as a Referer
      'referrer-policy': 'no-referrer',
      ...headers,
    },
  });
  for (const cookie of setCookies) response.headers.append('set-cookie', cookie);
  return response;
}

export function redirectResponse(location: string, headers: Record<string, string | string[]> = {}): Response {
  const h = new Headers({ location, 'cache-control': 'no-store' });
  for (const [name, value] of Object.entries(headers)) for (const v of [value].flat()) h.append(name, v);
  return new Response(null, { status: 302, headers: h });
}

/** The largest form the pages and OAuth endpoints take (a URL-encoded or multipart form of fields). */
export const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * Reads a URL-encoded (or multipart) form body, at most `limit` bytes whatever the headers say;
 * past it, BodyTooLargeError (413) with the rest of the body discarded.
 */
export async function readForm(
  { request, exchange }: Pick<RequestContext, 'request' | 'exchange'>,
  limit = FORM_LIMIT_BYTES,
): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? '';
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > limit) {
    if (request.body) void discardRest(request.body.getReader());
    throw new BodyTooLargeError(limit);
  }
  if (type.startsWith('multipart/form-data')) {
    // the fields; files have no place in these forms
    const params = new URLSearchParams();
    for (const [key, value] of await readMultipartForm(request, exchange, limit)) if (typeof value === 'string') params.append(key, value);
    return params;
  }
  const text = await readLimitedText(request, limit);
  if (!type.startsWith('application/x-www-form-urlencoded') && text.length > 0) return new URLSearchParams();
  const params = new URLSearchParams(text);
  if (hasNul([...params.entries()])) throw new MalformedBodyError('form fields may not contain NUL characters');
  return params;
}
