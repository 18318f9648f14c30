// Prometheus metrics, served at /metrics: HTTP requests by route and status, SQL statements and their
// time, rate-limit rejections, the response cache, GraphQL phases (yoga's plugin) and the process.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the response cache (cache/response-cache.ts) reports of itself, as these metrics publish it. */
export interface CacheStats {
  hits: number;
  misses: number;
  /** Lookups made while the clock could not be read (the response was computed, not stored). */
  bypassed: number;
  /** Misses answered by another lookup's computation of the same key, under the same reading. */
  coalesced: number;
  entries: number;
  bytes: number;
}

export interface Metrics {
  readonly registry: Registry;
  request(method: string, route: string, status: number, seconds: number): void;
  rateLimited(): void;
  /** An event that could not be published (Redis away); the write it announced stands. */
  eventFailed(): void;
  /** A client that closed its connection before its answer was sent. */
  aborted(): void;
  query(milliseconds: number): void;
  /** Where the response cache's figures come from, read at each scrape. */
  watchCache(stats: () => CacheStats): void;
  render(): Promise<string>;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The response cache's figures, read at each scrape from where `statsOf` says they come from (none before it is watched). */
function cacheGauges(registers: Registry[], statsOf: () => (() => CacheStats) | null): void {
  const cacheCounter = (name: string, help: string, pick: (stats: CacheStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = statsOf();
        if (stats) this.set(pick(stats()));
      },
    });
  cacheCounter('milepost_response_cache_hits', 'Anonymous reads answered from the response cache since start.', (s) => s.hits);
  cacheCounter(
    'milepost_response_cache_misses',
    'Anonymous reads computed and offered to the response cache since start.',
    (s) => s.misses,
  );
  cacheCounter(
    'milepost_response_cache_coalesced',
    'Anonymous reads that waited for the same read being computed, instead of computing it again, since start.',
    (s) => s.coalesced,
  );
  cacheCounter('milepost_response_cache_bytes', 'Bytes held by the response cache.', (s) => s.bytes);
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'milepost_' });
  const registers = [registry];
  const requests = new Counter({
    name: 'milepost_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'milepost_http_request_duration_seconds',
    help: 'Time from a request to its response head, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const rejections = new Counter({
    name: 'milepost_rate_limit_rejections_total',
    help: 'Requests refused with 503 because their rate limit was spent.',
    registers,
  });
  const queries = new Counter({ name: 'milepost_db_queries_total', help: 'SQL statements run.', registers });
  const queryTime = new Histogram({
    name: 'milepost_db_query_duration_seconds',
    help: 'Time of each SQL statement.',
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers,
  });
  const failedEvents = new Counter({
    name: 'milepost_events_failed_total',
    help: 'Events that could not be published to Redis (subscribers on other processes missed them).',
    registers,
  });
  const aborts = new Counter({
    name: 'milepost_http_requests_aborted_total',
    help: 'Requests whose client closed the connection before the answer was sent.',
    registers,
  });
  let cacheStats: (() => CacheStats) | null = null;
  cacheGauges(registers, () => cacheStats);
  return {
    registry,
    request(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    rateLimited: () => rejections.inc(),
    eventFailed: () => failedEvents.inc(),
    aborted: () => aborts.inc(),
    query(milliseconds) {
      queries.inc();
      queryTime.observe(milliseconds / 1000);
    },
    watchCache(stats) {
      cacheStats = stats;
    },
    render: () => registry.metrics(),
  };
}
