// One cap on live subscriptions for every transport. Each subscription costs every write its filter and
// its execution (a friends stream, a friendship count): one token held 1,400 over server-sent events,
// where only WebSockets were capped, and a post then waited for them all. The cap is taken where every
// transport's subscription starts (envelop's subscribe, which graphql-ws and yoga's SSE both call), per
// athlete, or without a token per client address (the forwarded one behind TRUST_PROXY), and given back
// when the subscription ends however it ends: completed, refused, or its client gone.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from './context.ts';

/** Live subscriptions of one athlete (or one address without a token), over every transport and connection. */
export const MAX_SUBSCRIPTIONS_PER_OWNER = 128;

/** Whose subscription it is, for the cap: the athlete, or the client's address. */
export function subscriptionOwner(context: Pick<Context, 'viewer' | 'clientAddress'>): string {
  return context.viewer ? `person:${context.viewer.id}` : `address:${context.clientAddress ?? 'unknown'}`;
}

export function useSubscriptionCaps(perOwner = MAX_SUBSCRIPTIONS_PER_OWNER): Plugin<Context> {
  const held = new Map<string, number>();
  const release = (owner: string) => {
    const left = (held.get(owner) ?? 1) - 1;
    if (left > 0) held.set(owner, left);
    else held.delete(owner);
  };
  return {
    onSubscribe({ args, subscribeFn, setSubscribeFn, setResultAndStopExecution }) {
      const owner = subscriptionOwner(args.contextValue);
      if ((held.get(owner) ?? 0) >= perOwner) {
        setResultAndStopExecution({
          errors: [
            new GraphQLError(`at most ${perOwner} subscriptions at once over all your connections; complete one first`, {
              extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' },
            }),
          ],
        });
        return undefined;
      }
      held.set(owner, (held.get(owner) ?? 0) + 1);
      let released = false;
      const releaseOnce = () => {
        if (released) return;
        released = true;
        release(owner);
      };
      setSubscribeFn(async (subscribeArgs) => {
        try {
          return await subscribeFn(subscribeArgs);
        } catch (error) {
          releaseOnce();
          throw error;
        }
      });
      return {
        onSubscribeResult({ result }) {
          // refused at its start (errors, no stream): nothing stays held
          if (!(Symbol.asyncIterator in Object(result))) {
            releaseOnce();
            return undefined;
          }
          // a client of server-sent events that goes away ends its request; its stream itself ends only
          // at its next event (a generator waiting for one cannot be returned sooner), so the place is
          // given back now
          (args.contextValue as { request?: Request }).request?.signal?.addEventListener('abort', releaseOnce, { once: true });
          return { onEnd: releaseOnce };
        },
      };
    },
  };
}
