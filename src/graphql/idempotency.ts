// Safe retries of writes: a mutation sent with an `Idempotency-Key` header runs once per person and
// key; sending it again (a client that lost the connection before the answer) gets the first answer
// back instead of a second comment. The REST creates run GraphQL mutations, so they get it too.
import { createHash } from 'node:crypto';
import { print, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { isUniqueViolation } from '../db/errors.ts';
import type { Context } from './context.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long an answer is kept for retries. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first attempt still running after this is taken as cut off (a crash) and may be run again. */
const ABANDONED_AFTER_MS = 60_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

function isMutation(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  return operation?.operation === 'mutation';
}

/** The same key must come with the same request: the document and its variables, files excepted. */
function fingerprint(document: DocumentNode, variables: unknown): string {
  const plain = JSON.stringify(variables ?? {}, (_key, value: unknown) => (value instanceof Blob ? `file:${value.size}` : value));
  return createHash('sha256').update(print(document)).update('\0').update(plain).digest('hex');
}

const failure = (message: string, code: string, status: number, headers: Record<string, string> = {}) =>
  createGraphQLError(message, { extensions: { code, http: { status, headers } } });

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
      const requestHash = fingerprint(args.document, args.variableValues);
      const where = { personId_key: { personId, key } };
      // the row is the lock: whoever inserts it runs the mutation
      for (let attempt = 0; ; attempt++) {
        const claimed = await prisma.idempotencyKey.create({ data: { personId, key, requestHash } }).then(
          () => true,
          (error: unknown) => {
            if (!isUniqueViolation(error)) throw error;
            return false;
          },
        );
        if (claimed) break;
        const found = await prisma.idempotencyKey.findUnique({ where });
        // older than the time keys are kept: gone, whether or not the clean-up has run yet
        const expired = found !== null && Date.now() - found.createdAt.getTime() > IDEMPOTENCY_TTL_HOURS * 3600_000;
        if (expired) await prisma.idempotencyKey.deleteMany({ where: { personId, key, createdAt: found.createdAt } });
        const existing = expired ? null : found;
        // deleted in between (a failed first attempt, an expired key): claim it again, a few times at most
        if (!existing && attempt < 3) continue;
        if (existing && existing.requestHash !== requestHash) {
          setResultAndStopExecution({
            errors: [
              failure(
                'this Idempotency-Key was used with a different request; use a new key for a new write',
                'IDEMPOTENCY_KEY_REUSED',
                422,
              ),
            ],
          });
          return undefined;
        }
        if (existing && existing.response !== null) {
          setResultAndStopExecution(JSON.parse(existing.response) as ExecutionResult);
          return undefined;
        }
        if (!existing || Date.now() - existing.createdAt.getTime() < ABANDONED_AFTER_MS || attempt > 0) {
          setResultAndStopExecution({
            errors: [
              failure('a request with this Idempotency-Key is still running; retry shortly', 'IDEMPOTENCY_IN_PROGRESS', 409, {
                'retry-after': '1',
              }),
            ],
          });
          return undefined;
        }
        await prisma.idempotencyKey.deleteMany({ where: { personId, key, response: null } });
      }
      if (Math.random() < 0.01) {
        void prisma.idempotencyKey
          .deleteMany({ where: { createdAt: { lt: new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000) } } })
          .catch(() => undefined);
      }
      return {
        async onExecuteDone({ result }) {
          const done = result as ExecutionResult;
          // an unexpected failure is not an answer to keep: the retry runs the write again
          if (done.errors?.length) await prisma.idempotencyKey.deleteMany({ where: { personId, key } });
          else await prisma.idempotencyKey.update({ where, data: { response: JSON.stringify(done) } });
        },
      };
    },
  };
}
