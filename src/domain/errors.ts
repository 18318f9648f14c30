// Expected failures. GraphQL exposes them as typed errors (the Pothos errors plugin); the REST layer
// maps each code to an HTTP status in one table.

export interface FieldIssue {
  /** The input field at fault, in the client's own naming (`since`, `workout.distance.value`). */
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: string;
}

export class ValidationError extends DomainError {
  readonly code: string = 'VALIDATION_FAILED';
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
    this.name = 'ValidationError';
  }

  static field(path: string, message: string): ValidationError {
    return new ValidationError([{ path, message }]);
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
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'TryAgainLaterError';
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  constructor(
    readonly resource: string,
    readonly key: string,
  ) {
    super(`${resource} ${key} does not exist`);
    this.name = 'NotFoundError';
  }
}

export class NotAuthorizedError extends DomainError {
  readonly code = 'NOT_AUTHORIZED';
  constructor(message = 'this operation needs an access token (oauth_token) of a person who may perform it') {
    super(message);
    this.name = 'NotAuthorizedError';
  }
}
