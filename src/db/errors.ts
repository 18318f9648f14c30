// What Prisma's error codes mean for the service, in one place: the writes that race on unique keys or
// on a row being deleted decide by these, never by matching codes by hand.

import { ValidationError } from '../domain/errors.ts';

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** What the driver said of a raw statement that failed (P2010): its kind of failure, such as `ForeignKeyConstraintViolation`. */
const rawKindOf = (error: unknown): unknown =>
  codeOf(error) === 'P2010'
    ? (error as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } }).meta?.driverAdapterError?.cause?.kind
    : undefined;

/** A unique key refused the row: someone else wrote it first (P2002, or a raw statement's). */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === 'P2002' || rawKindOf(error) === 'UniqueConstraintViolation';
}

/**
 * The row a write refers to, or the row it changes, is gone (a foreign key, P2003 or a raw statement's
 * such as db/comments.ts writes; not found, P2025).
 */
export function isMissingRow(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'P2003' || code === 'P2025' || rawKindOf(error) === 'ForeignKeyConstraintViolation';
}

/**
 * A write that names a row (a workout's route or gear) checked before it and deleted by a request that
 * committed in between (a foreign key refused it): a refusal naming `field`, never a 500.
 */
export function refusingGoneReference(field: string): (error: unknown) => never {
  return (error) => {
    if (codeOf(error) === 'P2003' || rawKindOf(error) === 'ForeignKeyConstraintViolation')
      throw ValidationError.field(field, 'names a route or gear deleted meanwhile: send it again');
    throw error;
  };
}

/**
 * A failure of the connection rather than of the statement: PostgreSQL restarted or a proxy cut the
 * connection. The pool opens a new one for the next attempt.
 */
export function isTransient(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string' && ['P1001', 'P1002', 'P1008', 'P1017', 'P2024'].includes(code)) return true;
  // PostgreSQL's SQLSTATE 57P01–57P03 (shut down, terminated) and class 08 (connection exception), as the driver reports them
  // (pg's "not queryable": a pooled client whose connection had just been cut; nothing was sent on it)
  return /Code: `(57P0[123]|08\w{3})`|Connection terminated|terminating connection|server closed the connection|ECONNRESET|ECONNREFUSED|Connection ended|is not queryable/i.test(
    String((error as Error)?.message ?? ''),
  );
}

/** Attempts of a read, with the pause before each retry: a reconnecting pool needs a moment. */
const READ_RETRY_DELAYS_MS = [0, 20, 100];

/** Runs a read, and again after a transient failure (up to three attempts). Never for writes: they may have committed. */
export async function retryingRead<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!isTransient(error) || attempt >= READ_RETRY_DELAYS_MS.length - 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, READ_RETRY_DELAYS_MS[attempt + 1]));
    }
  }
}

/**
 * The database cannot be reached or did not answer in time (down, restarting, a network blackhole):
 * the request is answered 503 with Retry-After, not 500, and not after minutes.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isTransient(error)) return true;
  // the same, as a GraphQL operation run by a page or the REST layer reports it (app/graphql-endpoint.ts)
  if ((error as { extensions?: { code?: unknown } } | null)?.extensions?.code === 'SERVICE_UNAVAILABLE') return true;
  const code = codeOf(error);
  // P2028: a transaction that could not start, or finish, in its time (another process's lock held past it)
  if (typeof code === 'string' && ['P1001', 'P1002', 'P1008', 'P2024', 'P2028', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code))
    return true;
  return /timeout exceeded when trying to connect|Query read timeout|connection timeout|canceling statement due to statement timeout|Can't reach database server|Timed out fetching a new connection/i.test(
    String((error as Error)?.message ?? ''),
  );
}

/** Seconds a client is told to wait when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
