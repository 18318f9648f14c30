// The one error body of every REST path, legacy and generated: `{"error": {"code", "message", "fields"?}}`,
// and the one table from the schema's typed failures to HTTP statuses.
import { tokenRefusal } from '../auth/tokens.ts';
import { TYPED_ERRORS } from '../domain/errors.ts';
import { errorBody, jsonResponse } from '../http/router.ts';
import type { FieldProblem } from './params.ts';

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldProblem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body() {
    return errorBody(this.code, this.message, this.fields ? { fields: this.fields } : {});
  }

  /** The refusal of a bad token (auth's tokenRefusal) as REST answers it; null for any other error. */
  static ofToken(error: unknown): RestError | null {
    const refusal = tokenRefusal(error);
    return refusal && new RestError(refusal.status, refusal.code, refusal.message, undefined, refusal.headers);
  }

  toResponse(extraHeaders: Record<string, string> = {}): Response {
    return jsonResponse(this.status, this.body, { ...this.headers, ...extraHeaders });
  }
}

const CHALLENGE = 'Bearer realm="milepost"';

export const notAuthorized = (message = 'this request needs an access token: oauth_token, or Authorization: Bearer') =>
  new RestError(401, 'NOT_AUTHORIZED', message, undefined, { 'www-authenticate': CHALLENGE });

/** A typed failure of the schema (the Pothos errors plugin's `Error` types), as its result carries it. */
export interface TypedFailure {
  __typename: string;
  message: string;
  code?: string | null;
  issues?: Array<{ path: string; message: string }> | null;
  retryAfterSeconds?: number | null;
  /** the scope an InsufficientScopeError names */
  scope?: string | null;
}

/** The schema's typed failures, by name. */
export const TYPED_FAILURES = TYPED_ERRORS;

/**
 * A typed failure that came as a GraphQL error (a stream answers its connection, so its refused
 * argument is an error whose extensions name the typed error: see the server's maskError); null for
 * any other error.
 */
export function failureOfError(
  error: { message: string; extensions?: Record<string, unknown> },
  viewer: boolean,
  fieldName?: (graphqlPath: string) => string,
): RestError | null {
  const type = error.extensions?.type;
  if (typeof type !== 'string' || !TYPED_FAILURES.has(type)) return null;
  const { code, issues, retryAfterSeconds, scope } = error.extensions as Partial<TypedFailure>;
  return failure({ __typename: type, message: error.message, code, issues, retryAfterSeconds, scope }, viewer, fieldName);
}

/**
 * Typed GraphQL failures to statuses: ValidationError 422 with its issues, NotFoundError 404,
 * NotAuthorizedError 401 without a token and 403 with one. `fieldName` names an issue's path as the
 * client sent it.
 */
export function failure(result: TypedFailure, viewer: boolean, fieldName: (graphqlPath: string) => string = (path) => path): RestError {
  switch (result.__typename) {
    case 'ValidationError':
      // a track upload past its bound that declared no length (chunked): 413, as one that declared it
      if (result.code === 'TOO_LARGE') return new RestError(413, 'TOO_LARGE', result.issues?.[0]?.message ?? 'the body is too large');
      return new RestError(
        422,
        'VALIDATION_FAILED',
        'some parameters are invalid',
        (result.issues ?? []).map((i) => ({ field: fieldName(i.path), message: i.message })),
      );
    case 'NotFoundError':
      return new RestError(404, 'NOT_FOUND', result.message);
    case 'TryAgainLaterError':
      return new RestError(429, 'TRY_AGAIN_LATER', result.message, undefined, { 'retry-after': String(result.retryAfterSeconds ?? 10) });
    case 'NotAuthorizedError':
      // a valid token that may not do this is forbidden; no token at all needs authorization
      return viewer ? new RestError(403, 'FORBIDDEN', result.message) : notAuthorized(result.message);
    case 'InsufficientScopeError':
      // RFC 6750 3.1: the challenge names the scope the app should ask the person for
      return new RestError(403, 'INSUFFICIENT_SCOPE', result.message, undefined, {
        'www-authenticate': `Bearer realm="milepost", error="insufficient_scope", scope="${result.scope ?? ''}"`,
      });
    default:
      return new RestError(500, 'INTERNAL', 'unexpected result');
  }
}
