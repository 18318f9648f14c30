// Slows down guessing (passwords at /login, codes and secrets at /oauth/token): each attempt is
// reserved atomically before the slow check runs, under every rule at once, so that concurrent
// attempts cannot all slip in before the first failure is counted. A success gives its attempt back.
// Counted in memory for one process, or in Redis through the limiter's store when it is shared.

export interface ThrottleRule {
  /** A name of its own: the counters of different rules never mix. */
  name: string;
  attempts: number;
  windowSeconds: number;
}

export const LOGIN_RULES = {
  /** per account and address: a person who mistypes a few times is not locked out by others */
  accountAddress: { name: 'login-account', attempts: 5, windowSeconds: 15 * 60 },
  /** per address, across accounts: stops one client from spraying passwords */
  address: { name: 'login-address', attempts: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>;

export const TOKEN_RULES = {
  clientAddress: { name: 'token-client', attempts: 20, windowSeconds: 15 * 60 },
  address: { name: 'token-address', attempts: 100, windowSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>;

/** One counter per rule, as the rate limiter's store provides them (memory, or Redis when shared). */
export interface AttemptCounter {
  /** Counts one attempt; the seconds to wait when the rule is spent (the attempt is then refused), else 0. */
  take(key: string): Promise<number>;
  /** Gives one attempt back (a success does not count against anyone). */
  giveBack(key: string): Promise<void>;
}

export type CounterFactory = (rule: ThrottleRule) => AttemptCounter;

export class GuessThrottle {
  private readonly counters = new Map<string, AttemptCounter>();

  constructor(private readonly counterFor: CounterFactory) {}

  private counter(rule: ThrottleRule): AttemptCounter {
    let counter = this.counters.get(rule.name);
    if (!counter) this.counters.set(rule.name, (counter = this.counterFor(rule)));
    return counter;
  }

  /** Reserves an attempt under each rule; the seconds to wait when any of them is spent, else 0. */
  async reserve(attempts: ReadonlyArray<readonly [string, ThrottleRule]>): Promise<number> {
    const waits = await Promise.all(attempts.map(([key, rule]) => this.counter(rule).take(key)));
    return Math.max(0, ...waits);
  }

  /** The attempt succeeded: it no longer counts. */
  async succeeded(attempts: ReadonlyArray<readonly [string, ThrottleRule]>): Promise<void> {
    await Promise.all(attempts.map(([key, rule]) => this.counter(rule).giveBack(key)));
  }
}
