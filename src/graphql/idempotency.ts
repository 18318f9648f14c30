// Safe retries of writes: a mutation sent with an `Idempotency-Key` header runs once per person and
// key; sending it again (a client that lost the connection before the answer) gets the first answer
// back instead of a second comment. The REST creates run GraphQL mutations, so they get it too.
//
// Crash-safe: each write transaction of a keyed mutation records its result on the key's row inside
// that same transaction (the row's `phases`). A process that dies, or loses its database, after a
// commit but before it stored the answer leaves those phases behind; the retry that takes the key
// over runs the mutation again with each recorded transaction replayed from its result instead of
// written a second time, and so answers what the first attempt would have.
import { createHash } from 'node:crypto';
import { type DocumentNode, type ExecutionResult, type OperationDefinitionNode, print } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { Prisma } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Context } from './context.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long an answer is kept for retries. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first attempt still running after this is taken as cut off (a crash), and a retry takes over. */
const ABANDONED_AFTER_MS = 60_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

function isMutation(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  return operation?.operation === 'mutation';
}

/**
 * The same key must come with the same request: the document, its variables with the bytes of every
 * file (two files of one size are two requests), and what the token may do, so that another token of
 * the person with fewer scopes (a read-only app) is refused the key rather than handed the answer.
 */
async function fingerprint(document: DocumentNode, variables: unknown, scopes: ReadonlySet<string>): Promise<string> {
  const files: Blob[] = [];
  const plain = JSON.stringify(variables ?? {}, (_key, value: unknown) => {
    if (!(value instanceof Blob)) return value;
    files.push(value);
    return `file:${files.length}:${value.size}`;
  });
  const hash = createHash('sha256')
    .update(print(document))
    .update('\0')
    .update(plain)
    .update('\0')
    .update([...scopes].sort().join(' '));
  for (const file of files) hash.update('\0').update(new Uint8Array(await file.arrayBuffer()));
  return hash.digest('hex');
}

const failure = (message: string, code: string, status: number, headers: Record<string, string> = {}) =>
  createGraphQLError(message, { extensions: { code, http: { status, headers } } });

/** One keyed run of a mutation: the results its write transactions returned, first attempt's included. */
interface KeyedRun {
  readonly where: { personId_key: { personId: number; key: string } };
  readonly phases: unknown[];
  /** How many of `phases` this run has reached: those before were replayed or written by it. */
  next: number;
}

/**
 * The client a keyed mutation writes through: `$transaction(fn)` records fn's result on the key's
 * row in the same transaction, or, on a retry, returns the result an earlier attempt committed
 * without running fn. Results are kept as JSON: a transaction of a keyed mutation returns ids and
 * counts, and reads what it answers after the commit. Everything else is the plain client.
 */
function keyedClient(prisma: Prisma, run: KeyedRun): Prisma {
  const transaction = async (write: unknown, options?: unknown) => {
    if (typeof write !== 'function') return (prisma.$transaction as (w: unknown, o?: unknown) => unknown)(write, options);
    if (run.next < run.phases.length) return run.phases[run.next++];
    const result = await prisma.$transaction(
      async (tx) => {
        const value: unknown = await (write as (t: typeof tx) => Promise<unknown>)(tx);
        const phases = [...run.phases, value ?? null];
        await tx.idempotencyKey.update({ where: run.where, data: { phases: JSON.stringify(phases) }, select: { key: true } });
        return value;
      },
      options as Parameters<Prisma['$transaction']>[1],
    );
    run.phases.push(result ?? null);
    run.next = run.phases.length;
    return result;
  };
  const keyed = new Proxy(prisma, {
    get(target, property) {
      if (property === '$transaction') return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  keyedClients.add(keyed);
  return keyed;
}

const keyedClients = new WeakSet<Prisma>();

/**
 * Whether `prisma` records its write transactions for a retry (a mutation sent with an Idempotency-Key):
 * a write that one statement would do must then still be a transaction, which the key's record joins.
 */
export const recordsTransactions = (prisma: Prisma): boolean => keyedClients.has(prisma);

const lockUntil = () => new Date(Date.now() + ABANDONED_AFTER_MS);

export function useIdempotencyKeys(): Plugin<Context & { request?: Request }> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as Context & { request?: Request };
      const key = context.request?.headers.get(IDEMPOTENCY_HEADER);
      if (!key || !context.viewer || !isMutation(args.document, args.operationName)) return undefined;
      if (!KEY.test(key)) {
        setResultAndStopExecution({
          errors: [failure('Idempotency-Key must be 1 to 255 visible ASCII characters', 'INVALID_IDEMPOTENCY_KEY', 400)],
        });
        return undefined;
      }
      const { prisma } = context;
      const personId = context.viewer.id;
      const requestHash = await fingerprint(args.document, args.variableValues, context.viewer.scopes);
      const where = { personId_key: { personId, key } };
      const claim = await claimKey(prisma, { personId, key }, requestHash);
      if ('answer' in claim) {
        setResultAndStopExecution(claim.answer);
        return undefined;
      }
      const { phases } = claim;
      if (Math.random() < 0.01) {
        void prisma.idempotencyKey
          .deleteMany({ where: { createdAt: { lt: new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000) } } })
          .catch(() => undefined);
      }
      const run: KeyedRun = { where, phases, next: 0 };
      (context as { prisma: Prisma }).prisma = keyedClient(prisma, run);
      return {
        onExecuteDone: async ({ result }) => {
          (context as { prisma: Prisma }).prisma = prisma;
          await recordOutcome(prisma, { personId, key }, run, result as ExecutionResult);
        },
      };
    },
  };
}

/**
 * Claims an Idempotency-Key for a request: the row is the lock, and whoever inserts it, or takes over an
 * abandoned one, runs the mutation (with the phases a cut-off run had committed). Otherwise the answer
 * is the one kept for the same request, or a refusal: another request's key (422), or still running (409).
 */
async function claimKey(
  prisma: Prisma,
  owner: { personId: number; key: string },
  requestHash: string,
): Promise<{ phases: unknown[] } | { answer: ExecutionResult }> {
  const { personId, key } = owner;
  const where = { personId_key: owner };
  const refuse = (error: ReturnType<typeof failure>) => ({ answer: { errors: [error] } });
  for (let attempt = 0; ; attempt++) {
    const claimed = await prisma.idempotencyKey
      .create({ data: { personId, key, requestHash, lockedUntil: lockUntil() }, select: { key: true } })
      .then(
        () => true,
        (error: unknown) => {
          if (!isUniqueViolation(error)) throw error;
          return false;
        },
      );
    if (claimed) return { phases: [] };
    const found = await prisma.idempotencyKey.findUnique({ where });
    // older than the time keys are kept: gone, whether or not the clean-up has run yet
    const expired = found !== null && Date.now() - found.createdAt.getTime() > IDEMPOTENCY_TTL_HOURS * 3600_000;
    if (expired) await prisma.idempotencyKey.deleteMany({ where: { personId, key, createdAt: found.createdAt } });
    const existing = expired ? null : found;
    if (!existing) {
      // deleted in between (a first attempt that wrote nothing, an expired key): claim it again, a few times at most
      if (attempt < 3) continue;
      return refuse(inProgress());
    }
    if (existing.requestHash !== requestHash)
      return refuse(
        failure('this Idempotency-Key was used with a different request; use a new key for a new write', 'IDEMPOTENCY_KEY_REUSED', 422),
      );
    if (existing.response !== null) return { answer: JSON.parse(existing.response) as ExecutionResult };
    if (existing.lockedUntil && existing.lockedUntil.getTime() > Date.now()) return refuse(inProgress());
    // cut off (a crash, a lost database) or released after a failure: take it over, once
    const { count } = await prisma.idempotencyKey.updateMany({
      where: { personId, key, response: null, lockedUntil: existing.lockedUntil },
      data: { lockedUntil: lockUntil() },
    });
    if (count === 1) return { phases: existing.phases ? (JSON.parse(existing.phases) as unknown[]) : [] };
    if (attempt >= 3) return refuse(inProgress());
  }
}

/** Keeps a mutation's answer under its key, or lets the key go when there is none to keep. */
async function recordOutcome(
  prisma: Prisma,
  owner: { personId: number; key: string },
  run: KeyedRun,
  done: ExecutionResult,
): Promise<void> {
  const where = { personId_key: owner };
  try {
    if (!done.errors?.length) await prisma.idempotencyKey.update({ where, data: { response: JSON.stringify(done), lockedUntil: null } });
    // an unexpected failure is not an answer to keep: with nothing committed, the retry
    // runs the write again; after a commit, it replays what was committed and goes on
    else if (run.phases.length === 0) await prisma.idempotencyKey.deleteMany({ where: owner });
    else await prisma.idempotencyKey.update({ where, data: { lockedUntil: new Date() } });
  } catch {
    // the database went away after the write: the recorded phases let a retry answer
    // the same once the lock has lapsed; this answer still goes to the client
  }
}

const inProgress = () =>
  failure('a request with this Idempotency-Key is still running; retry shortly', 'IDEMPOTENCY_IN_PROGRESS', 409, { 'retry-after': '1' });
