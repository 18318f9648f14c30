// Cross-site request forgery: which requests a browser could send from another site without asking
// first, and the headers that prove it asked. /graphql (yoga's CSRF prevention) and /api/v1 apply the same list.

/** The browser-preflight headers /graphql asks of a request a browser could send without a preflight. */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'graphql-preflight', 'apollo-require-preflight', 'authorization'];

/** Content types a browser sends cross-site without a preflight (a form post). */
const SIMPLE_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** True when a browser could have sent `request` from another site without asking first. */
export function unpreflighted(request: Request): boolean {
  const type = request.headers.get('content-type')?.toLowerCase();
  if (type && !SIMPLE_CONTENT_TYPES.some((simple) => type.startsWith(simple))) return false;
  return !CSRF_HEADERS.some((name) => request.headers.has(name));
}
