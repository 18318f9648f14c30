// Slows down password guessing: after too many failures for an account, or from an address, further
// attempts are refused until the window has passed. In memory, per process (issue 6 moves it to Redis).

export interface ThrottleRule {
  failures: number;
  windowSeconds: number;
}

export const LOGIN_RULES = {
  /** per account and address: a person who mistypes a few times is not locked out by others */
  accountAddress: { failures: 5, windowSeconds: 15 * 60 },
  /** per address, across accounts: stops one client from spraying passwords */
  address: { failures: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>;

export const TOKEN_RULES = {
  clientAddress: { failures: 20, windowSeconds: 15 * 60 },
  address: { failures: 100, windowSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>;

export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until `key` may try again under `rule`, or 0. */
  retryAfter(key: string, rule: ThrottleRule): number {
    const recent = this.recent(key, rule);
    if (recent.length < rule.failures) return 0;
    return Math.max(1, Math.ceil((recent[0]! + rule.windowSeconds * 1000 - this.now()) / 1000));
  }

  fail(key: string, rule: ThrottleRule): void {
    const recent = this.recent(key, rule);
    recent.push(this.now());
    this.failures.set(key, recent.slice(-rule.failures));
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, rule: ThrottleRule): number[] {
    const since = this.now() - rule.windowSeconds * 1000;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }
}
