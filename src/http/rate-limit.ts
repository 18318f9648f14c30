// One rate limiter for every request (SPEC 8: 1500 an hour): REST, GraphQL and the OAuth endpoints.
// Counted per access token when one is sent, else per client address; in memory for one process, in
// Redis when REDIS_URL is set, with an in-memory limiter taking over while Redis is unreachable.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AttemptCounter, ThrottleRule } from '../auth/throttle.ts';
import type { Config } from '../config.ts';
import type { RateBudget } from '../graphql/context.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the window ends, epoch seconds (GitHub's X-RateLimit-Reset). */
  resetAt: number;
  /** Seconds until a request may be sent again; 0 when allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  /** Spends `points` (1) of `key`'s budget. */
  consume(key: string, points?: number): Promise<RateDecision>;
  /** A counter of attempts under `rule`, kept where this limiter keeps its counts (memory or Redis). */
  attemptCounter(rule: ThrottleRule): AttemptCounter;
  /** Redis's state for /readyz: answers a PING, or not, or is not configured. */
  redisStatus(): Promise<'ok' | 'unavailable' | 'not configured'>;
  /** Resolves once Redis answers (at once without Redis); false if it did not within `timeoutMs`. */
  ready(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The longest a request waits for Redis before the in-memory limiter answers in its place. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * A Redis connection whose every command is bounded: no offline queue (while Redis is away, calls fail
 * at once and the caller falls back), and no unbounded wait (a Redis that accepts but never answers,
 * stopped or behind a network blackhole, held every request for 70 s and more). It reconnects by itself.
 */
export function boundedRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
  });
  redis.on('error', () => {
    /* reconnects by itself; each caller covers the gap */
  });
  return redis;
}

/** Whether `redis` is connected within `timeoutMs` (true without one). */
export function redisReady(redis: Redis | null, timeoutMs = 5_000): Promise<boolean> {
  if (!redis || redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export function createRateLimiter(config: Pick<Config, 'rateLimit' | 'redisUrl' | 'redisKeyPrefix'>): RateLimiter {
  const { points, windowSeconds: duration } = config.rateLimit;
  const keyPrefix = `${config.redisKeyPrefix}:rl`;
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  let limiter: RateLimiterAbstract = memory;
  let redis: Redis | null = null;
  if (config.redisUrl) {
    // while Redis is away or slow, the insurance limiter answers
    redis = boundedRedis(config.redisUrl);
    limiter = new RateLimiterRedis({
      storeClient: redis,
      points,
      duration,
      keyPrefix,
      insuranceLimiter: memory,
      rejectIfRedisNotReady: true,
    });
  }
  const decision = (res: RateLimiterRes, allowed: boolean): RateDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });
  const counterLimiter = (rule: ThrottleRule): RateLimiterAbstract => {
    const options = { points: rule.attempts, duration: rule.windowSeconds, keyPrefix: `${config.redisKeyPrefix}:guess:${rule.name}` };
    const local = new RateLimiterMemory(options);
    return redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: local, rejectIfRedisNotReady: true }) : local;
  };
  return {
    attemptCounter(rule) {
      const counter = counterLimiter(rule);
      return {
        async take(key) {
          try {
            await counter.consume(key);
            return 0;
          } catch (rejection) {
            if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
            throw rejection;
          }
        },
        async giveBack(key) {
          await counter.reward(key, 1).catch(() => undefined);
        },
      };
    },
    async consume(key, points = 1) {
      try {
        return decision(await limiter.consume(key, points), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rejection, false);
        throw rejection;
      }
    },
    async redisStatus() {
      if (!redis) return 'not configured';
      try {
        return (await Promise.race([redis.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000))])) ===
          'PONG'
          ? 'ok'
          : 'unavailable';
      } catch {
        return 'unavailable';
      }
    },
    ready: (timeoutMs = 5_000) => redisReady(redis, timeoutMs),
    async close() {
      redis?.disconnect();
    },
  };
}

/** Whose requests these are: the token's (hashed: keys must not hold credentials), else the address's. */
export function rateLimitKey(token: string | null, clientAddress: string): string {
  return token ? `token:${createHash('sha256').update(token).digest('hex').slice(0, 32)}` : `ip:${clientAddress}`;
}

/**
 * The client's address. `X-Forwarded-For` is believed only for as many hops as there are trusted
 * proxies: each appends the address it saw, so the entry `trustProxy` from the end is the client.
 */
export function clientAddressOf(socketAddress: string, forwardedFor: string | null, trustProxy: number): string {
  if (trustProxy === 0 || !forwardedFor) return socketAddress;
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  return hops[hops.length - trustProxy] ?? hops[0] ?? socketAddress;
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetAt),
  };
}

/** The 503 of a spent limit (SPEC 7): its JSON body and headers, Retry-After included. */
export function rateLimitedReply(decision: RateDecision, windowSeconds: number): RateLimitedReply {
  const message = `rate limit of ${decision.limit} requests per ${windowSeconds} s exceeded; retry in ${decision.retryAfter} s`;
  return {
    status: 503,
    body: { error: { code: 'RATE_LIMITED', message } },
    headers: { ...rateLimitHeaders(decision), 'retry-after': String(decision.retryAfter) },
    message,
    retryAfter: decision.retryAfter,
  };
}

/** The refusal of a request over the limit: the legacy paths' 503 (SPEC), and what GraphQL answers instead. */
export interface RateLimitedReply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  message: string;
  retryAfter: number;
}

/**
 * The same refusal as GraphQL clients read one: 429 with an `errors` array whose extensions carry the
 * code and `retryAfter` (Apollo and urql surface those; a bare `{"error":…}` under 503 showed them only
 * a status). A batch of `operations` gets an array as long as itself, one refusal each.
 */
export function graphqlRateLimited(reply: RateLimitedReply, operations: number | null, accept: string | null): RateLimitedReply {
  const one = { errors: [{ message: reply.message, extensions: { code: 'RATE_LIMITED', retryAfter: reply.retryAfter } }] };
  return {
    ...reply,
    status: 429,
    body: operations === null ? one : Array.from({ length: operations }, () => one),
    headers: { ...reply.headers, 'content-type': graphqlMediaType(accept) },
  };
}

/**
 * The media type of a GraphQL answer refused before it ran: GraphQL over HTTP's own when the client
 * accepts it (Apollo Client 4 reads the errors of a non-2xx answer only then), else JSON.
 */
export const graphqlMediaType = (accept: string | null) =>
  accept?.includes('application/graphql-response+json')
    ? 'application/graphql-response+json; charset=utf-8'
    : 'application/json; charset=utf-8';

/** What the edge decided of a request before any handler runs: whose it is, and whether it may go on. */
export interface Admission {
  clientAddress: string;
  /** Whose budget the request spent (a batch of operations spends one more a further operation). */
  key: string;
  /** The X-RateLimit-* headers every answer carries. */
  headers: Record<string, string>;
  /** The 503 to answer instead, when the limit is spent. */
  refusal: RateLimitedReply | null;
  /** What is left of the budget after this request (GraphQL's `rateLimit`). */
  budget: RateBudget;
}

/**
 * The one admission rule of both ways in (node:http's fast path and the full way): the client's
 * address as the trusted proxies report it, and the limit of the token's budget (a recognised
 * token) or else of the address.
 */
export function createAdmission(options: {
  consume: (key: string) => Promise<RateDecision>;
  trustProxy: number;
  windowSeconds: number;
}): (socketAddress: string, forwardedFor: string | null, recognizedToken: string | null) => Promise<Admission> {
  return async (socketAddress, forwardedFor, recognizedToken) => {
    const clientAddress = clientAddressOf(socketAddress, forwardedFor, options.trustProxy);
    const key = rateLimitKey(recognizedToken, clientAddress);
    const decision = await options.consume(key);
    return {
      clientAddress,
      key,
      headers: rateLimitHeaders(decision),
      refusal: decision.allowed ? null : rateLimitedReply(decision, options.windowSeconds),
      budget: { limit: decision.limit, remaining: decision.remaining, resetAt: decision.resetAt },
    };
  };
}
