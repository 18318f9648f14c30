import { createGraphQLError } from 'graphql-yoga';
import {
  type DomainError,
  type FieldIssue,
  InsufficientScopeError,
  NotAuthorizedError,
  NotFoundError,
  TryAgainLaterError,
  ValidationError,
} from '../../domain/errors.ts';
import { builder } from '../builder.ts';

export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description: 'An expected failure. `code` is stable and machine-readable; `message` is for people.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'Stable and machine-readable: switch on it.' }),
    message: t.exposeString('message', { description: 'For people: may change between releases.' }),
  }),
});

const FieldIssueRef = builder.objectRef<FieldIssue>('FieldIssue').implement({
  description: 'One invalid input field.',
  fields: (t) => ({
    path: t.exposeString('path', { description: 'The field, as the client named it: `lat`, `workout.distance.value`.' }),
    message: t.exposeString('message', { description: 'What is wrong with the value, for people.' }),
  }),
});

/** Brands a typed error's value as its type (see `errorValue`). */
const TYPED = Symbol('typed error');

/**
 * A typed error as a field answers it: its fields, as a plain value. An Error returned by a resolver
 * would be taken by GraphQL as the field failing; a payload's `error` is data.
 */
export function errorValue(error: DomainError): never {
  return { [TYPED]: error.type, message: error.message, ...error.extensions() } as never;
}

/** Whether `value` is the typed error `type`: its instance (a result union's), or its value (a payload's). */
const isTyped = (type: abstract new (...args: never[]) => DomainError, name: string) => (value: unknown) =>
  value instanceof type || (typeof value === 'object' && value !== null && (value as { [TYPED]?: string })[TYPED] === name);

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'Some input was invalid or missing. REST answers 422.',
  interfaces: [ErrorInterface],
  isTypeOf: isTyped(ValidationError, 'ValidationError'),
  fields: (t) => ({
    issues: t.field({ type: [FieldIssueRef], description: 'Each invalid input, by its path.', resolve: (error) => error.issues }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The addressed resource does not exist. REST answers 404.',
  interfaces: [ErrorInterface],
  isTypeOf: isTyped(NotFoundError, 'NotFoundError'),
  fields: (t) => ({ resource: t.exposeString('resource', { description: 'The kind of thing that was not found: `entry`, `person`, …' }) }),
});

builder.objectType(NotAuthorizedError, {
  name: 'NotAuthorizedError',
  description: 'No valid access token, or one whose person may not do this. REST answers 401.',
  interfaces: [ErrorInterface],
  isTypeOf: isTyped(NotAuthorizedError, 'NotAuthorizedError'),
  fields: () => ({}),
});

builder.objectType(TryAgainLaterError, {
  name: 'TryAgainLaterError',
  description: 'The request cannot run now: another like it is still running. Retry after `retryAfterSeconds`. REST answers 429.',
  interfaces: [ErrorInterface],
  isTypeOf: isTyped(TryAgainLaterError, 'TryAgainLaterError'),
  fields: (t) => ({ retryAfterSeconds: t.exposeInt('retryAfterSeconds', { description: 'Seconds to wait before trying again.' }) }),
});

builder.objectType(InsufficientScopeError, {
  name: 'InsufficientScopeError',
  description:
    'The token is valid, but the person did not grant its app the scope this needs: ask them again for `scope`. REST answers 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`.',
  interfaces: [ErrorInterface],
  isTypeOf: isTyped(InsufficientScopeError, 'InsufficientScopeError'),
  fields: (t) => ({ scope: t.exposeString('scope', { description: 'The scope the operation needs (`entries:write`, …).' }) }),
});

/** The schema's name of each typed error class (a subclass, such as TooLargeError, is its parent's type). */
export const ERROR_TYPE_NAMES = new Map<abstract new (...args: never[]) => DomainError, string>([
  [ValidationError, 'ValidationError'],
  [NotFoundError, 'NotFoundError'],
  [NotAuthorizedError, 'NotAuthorizedError'],
  [TryAgainLaterError, 'TryAgainLaterError'],
  [InsufficientScopeError, 'InsufficientScopeError'],
]);

/**
 * A typed failure of a field that answers its object, not a union (a stream, a list's page): a GraphQL
 * error whose `extensions` carry the typed error (`type`, `code`, its fields). Expected, so neither
 * masked nor logged as a fault.
 */
export const typedGraphQLError = (error: DomainError) => createGraphQLError(error.message, { extensions: { ...error.extensions() } });

/**
 * A size argument (how many points) as asked, when it is a whole number from `min` to `max`; else a
 * GraphQL error carrying the ValidationError that names it (the field answers null up to its nearest
 * nullable parent), never a silently different answer.
 */
export function sizeArgument(name: string, value: number, min: number, max: number): number {
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  throw typedGraphQLError(ValidationError.field(name, `must be a whole number from ${min} to ${max.toLocaleString('en')}`));
}
