// Expected failures. GraphQL exposes them as typed errors (the Pothos errors plugin); the REST layer
// maps each code to an HTTP status in one table.

export interface FieldIssue {
  /** The input field at fault, in the client's own naming (`since`, `workout.distance.value`). */
  path: string;
  message: string;
}

/**
 * A failure as GraphQL's `errors[].extensions` carry it where a field answers its object, not a union
 * (the streams): `type` names the typed error the schema defines, and its fields come along.
 */
export interface ErrorExtensions {
  code: string;
  type: string;
  issues?: FieldIssue[];
  resource?: string;
  retryAfterSeconds?: number;
  scope?: string;
}

/** The schema's typed errors, by name: what `ErrorExtensions.type` may be. */
export const TYPED_ERRORS = new Set([
  'ValidationError',
  'NotFoundError',
  'NotAuthorizedError',
  'TryAgainLaterError',
  'InsufficientScopeError',
]);

export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** The schema's typed error this is (`ValidationError`, …); `Error` for one the schema has no type of. */
  readonly type: string = 'Error';

  extensions(): ErrorExtensions {
    return { code: this.code, type: this.type };
  }
}

export class ValidationError extends DomainError {
  readonly code: string = 'VALIDATION_FAILED';
  override readonly type = 'ValidationError';
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
    this.name = 'ValidationError';
  }

  static field(path: string, message: string): ValidationError {
    return new ValidationError([{ path, message }]);
  }

  override extensions(): ErrorExtensions {
    return { ...super.extensions(), issues: this.issues };
  }
}

/**
 * A document larger than its field allows: a ValidationError (GraphQL shows it as one, naming the
 * field) whose code tells it apart, so that the REST layer answers 413 as documented, not 422.
 */
export class TooLargeError extends ValidationError {
  override readonly code = 'TOO_LARGE';
  constructor(path: string, maxBytes: number) {
    super([{ path, message: `is larger than ${maxBytes} bytes` }]);
    this.name = 'TooLargeError';
  }
}

/** The request is fine but cannot run now (another like it is still running); retry after a while. */
export class TryAgainLaterError extends DomainError {
  readonly code = 'TRY_AGAIN_LATER';
  override readonly type = 'TryAgainLaterError';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'TryAgainLaterError';
  }

  override extensions(): ErrorExtensions {
    return { ...super.extensions(), retryAfterSeconds: this.retryAfterSeconds };
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  override readonly type = 'NotFoundError';
  constructor(
    readonly resource: string,
    readonly key: string,
  ) {
    super(`${resource} ${key} does not exist`);
    this.name = 'NotFoundError';
  }

  override extensions(): ErrorExtensions {
    return { ...super.extensions(), resource: this.resource };
  }
}

export class NotAuthorizedError extends DomainError {
  readonly code = 'NOT_AUTHORIZED';
  override readonly type = 'NotAuthorizedError';
  constructor(message = 'this operation needs an access token (oauth_token) of a person who may perform it') {
    super(message);
    this.name = 'NotAuthorizedError';
  }
}

/** The token is valid, but the person did not grant its app the scope this needs (RFC 6750 3.1 `insufficient_scope`). */
export class InsufficientScopeError extends DomainError {
  readonly code = 'INSUFFICIENT_SCOPE';
  override readonly type = 'InsufficientScopeError';
  constructor(readonly scope: string) {
    super(`this needs the scope ${scope}, which the person did not grant this app`);
    this.name = 'InsufficientScopeError';
  }

  override extensions(): ErrorExtensions {
    return { ...super.extensions(), scope: this.scope };
  }
}
