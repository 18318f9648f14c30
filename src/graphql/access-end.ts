// A subscription that ends because its subscriber's access ended (their token revoked or expired over
// server-sent events, their account suspended) ends with a last result that says why, with a code,
// before it completes: over SSE it only completed, which a client could not tell from "finished", while
// a WebSocket is closed 4403 with a reason.
import { isAsyncIterable } from '@envelop/core';
import type { ExecutionResult } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { Context } from './context.ts';
import { accessEnded } from './subscriptions.ts';

/** `results`, then, when the subscription ended for its access, one result holding why. */
function withNotice(context: Context, results: AsyncIterable<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  const inner = results[Symbol.asyncIterator]();
  let told = false;
  // an iterator, not a generator: a client going away returns it while it waits for the next event
  return {
    async next() {
      const next = await inner.next();
      const ended = next.done ? accessEnded.get(context) : undefined;
      if (!ended || told) return next;
      told = true;
      return { done: false, value: { errors: [createGraphQLError(ended.message, { extensions: { code: ended.code } })] } };
    },
    async return() {
      return (await inner.return?.()) ?? { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

export function useAccessEndNotice(): Plugin<Context> {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ args, result, setResult }) {
          if (isAsyncIterable(result)) setResult(withNotice(args.contextValue as Context, result as AsyncIterable<ExecutionResult>));
        },
      };
    },
  };
}
