// The one place that reads process.env. Everything else receives a Config. Each variable's form is a
// zod schema (`setting`), whose refusal names the variable, says what it must be, and shows what was
// given (a URL with its password masked; a secret not at all).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export type DatabaseConfig =
  | { provider: 'sqlite'; url: string; file: string }
  | { provider: 'postgresql'; url: string; connectionString: string; schema: string };

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  /**
   * Unexpected errors answer with their message and stack (yoga's development mode). Only when
   * NODE_ENV=development is set explicitly (`npm run dev`): `npm start` is safe to expose.
   */
  readonly exposeErrors: boolean;
  readonly host: string;
  readonly port: number;
  /** Absolute base for the `url` fields of responses; derived from each request when unset. */
  readonly publicUrl: string | null;
  readonly database: DatabaseConfig;
  readonly graphiql: boolean;
  readonly logQueries: boolean;
  /** Signs the log-in cookie. Random per process outside production (log-ins then end at restart). */
  readonly sessionSecret: string;
  readonly rateLimit: { readonly points: number; readonly windowSeconds: number };
  /** Shared rate limits (and, later, events) across processes; null keeps them in memory. */
  readonly redisUrl: string | null;
  /** Namespace of Milepost's keys in Redis, so that deployments (and test runs) sharing one never mix. */
  readonly redisKeyPrefix: string;
  /** How many reverse proxies in front may be believed about the client address and scheme. */
  readonly trustProxy: number;
  /** Answer every request with 503 (no Retry-After) while the service is being maintained. */
  readonly maintenance: boolean;
  readonly introspection: boolean;
  /**
   * Trusted documents: when set (TRUSTED_DOCUMENTS, a JSON file of id → operation text, as relay-compiler's
   * `persistConfig` or codegen's persisted documents write it), only these operations run over HTTP, by
   * their id; null lets any operation run, and automatic persisted queries register them.
   */
  readonly trustedDocuments: ReadonlyMap<string, string> | null;
  readonly tls: { readonly cert: string; readonly key: string } | null;
  /** Refuse requests that carry a token over plain HTTP (403). */
  readonly requireTls: boolean;
  /** `allowPrivate`: webhooks may target loopback and private networks (off: SSRF guard). */
  readonly webhooks: { readonly pollMs: number; readonly retryBaseSeconds: number; readonly allowPrivate: boolean };
  /**
   * Mailed notifications (src/mail/): SMTP_URL (`smtp://user:pass@host:587`, `smtps://…:465`) turns them on;
   * MAIL_FROM is the sender (default `Milepost <no-reply@the PUBLIC_URL's host>`); MAIL_POLL_MS how often
   * the outbox is read. Null without SMTP_URL: nobody is mailed, and no address can be set.
   */
  readonly mail: { readonly smtpUrl: string; readonly from: string; readonly pollMs: number } | null;
  /**
   * The fediverse (src/federation/, ActivityPub): off unless FEDERATION=true, which needs PUBLIC_URL (the
   * host name remote servers know this one by: handles are `user@<its host>`). `allowPrivate`
   * (FEDERATION_ALLOW_PRIVATE): fetch from and deliver to loopback and private addresses (tests, two
   * instances on one machine); `pollMs` (FEDERATION_POLL_MS): how often the delivery queue is read;
   * FEDERATION_RETRY_BASE_SECONDS and FEDERATION_RETRY_ATTEMPTS: how a failed delivery is retried.
   */
  readonly federation: {
    readonly origin: string;
    readonly allowPrivate: boolean;
    readonly pollMs: number;
    /** A failed delivery is tried again after this many seconds, doubling, RETRY_ATTEMPTS times in all. */
    readonly retryBaseSeconds: number;
    readonly retryAttempts: number;
  } | null;
  /** Memory for cached anonymous read responses, in MB; 0 turns the cache off. */
  readonly responseCacheMb: number;
  /** Millions of characters of entries' JSON kept for stream pages (ENTRY_JSON_MB; 0: none kept). */
  readonly entryJsonMb: number;
  /**
   * How far the JavaScript heap may grow past what the last full collection kept, in percent (V8's
   * --heap-growing-percent); 0 leaves V8's own factor (up to 4x, so a 70 MB live heap idles at 280 MB).
   */
  readonly heapGrowthPercent: number;
  /**
   * Where uploaded photos are kept (MEDIA_DIR): by default `media/` beside the SQLite file, else
   * `./data/media`. Every process of a deployment must see the same directory.
   */
  readonly mediaDir: string;
  /**
   * The map tiles the pages draw tracks on (MAP_TILE_URL, MAP_ATTRIBUTION): a URL template with {z},
   * {x} and {y}, and the attribution its provider asks for. OpenStreetMap's by default.
   */
  readonly mapTiles: { url: string; attribution: string };
  /** When set, /metrics answers only requests with `Authorization: Bearer <this>`. */
  readonly metricsToken: string | null;
  /**
   * Whether /metrics answers anyone when METRICS_TOKEN is unset (METRICS_PUBLIC; default: outside
   * production only). Its counts tell when people write, hidden entries included.
   */
  readonly metricsPublic: boolean;
  /**
   * How long an app's access token works (ACCESS_TOKEN_TTL_SECONDS, default 6 hours) and its refresh
   * token, counted from the latest refresh (REFRESH_TOKEN_TTL_SECONDS, default 180 days). A legacy
   * app's tokens never expire.
   */
  readonly tokenLifetimes: { readonly accessSeconds: number; readonly refreshSeconds: number; readonly reuseSeconds: number };
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** How a refused value is shown in its error: as given, with a URL's password masked, or not at all (a secret). */
type Shown = 'as-is' | 'masked' | 'hidden';

/** `value` read by `schema`, or a ConfigError naming `variable`, what it must be, and (as `shown`) what it was. */
function setting<T>(variable: string, schema: z.ZodType<T>, value: string, shown: Shown = 'as-is'): T {
  const read = schema.safeParse(value);
  if (read.success) return read.data;
  const message = read.error.issues[0]?.message ?? 'is not valid';
  if (shown === 'hidden') throw new ConfigError(variable, message);
  throw new ConfigError(variable, `${message}, got "${shown === 'masked' ? redactUrl(value) : value}"`);
}

/** An unset or empty variable takes its default. */
const isUnset = (value: string | undefined): value is undefined | '' => value === undefined || value === '';

const wholeNumber = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const PORT = z.coerce
  .number({ error: 'must be an integer between 0 and 65535' })
  .int({ error: 'must be an integer between 0 and 65535' })
  .min(0, { error: 'must be an integer between 0 and 65535' })
  .max(65535, { error: 'must be an integer between 0 and 65535' });
const FLAG = z
  .string()
  .regex(/^(1|true|yes|on|0|false|no|off)$/i, { error: 'must be true or false (or 1/0)' })
  .transform((value) => /^(1|true|yes|on)$/i.test(value));
const HTTP_URL = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });
const REDIS_URL = z.string().regex(/^rediss?:\/\//, { error: 'must start with redis:// or rediss://' });
const SMTP_URL = z.url({ protocol: /^smtps?$/, error: 'must be a URL that starts with smtp:// or smtps://' });
const MAIL_FROM = z
  .string()
  .regex(/<[^<>\s@]+@[^<>\s@]+>$|^[^<>\s@]+@[^<>\s@]+$/, { error: 'must be an address, or a name and <an address>' });
const NODE_ENV = z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' });
const SESSION_SECRET = z.string().min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -base64 48`)' });
/** A tile URL template: an http(s) URL once its {z}, {x} and {y} are filled in, holding all three. */
const TILE_URL = z
  .string()
  .refine((value) => HTTP_URL.safeParse(value.replace(/\{[a-z]\}/g, '0')).success, { error: 'must be an http(s) URL' })
  .refine((value) => ['{z}', '{x}', '{y}'].every((part) => value.includes(part)), { error: 'must hold {z}, {x} and {y}' });

export const DEFAULT_DATABASE_URL = 'file:./data/milepost.db';

export function parseDatabaseUrl(url: string, cwd = process.cwd()): DatabaseConfig {
  if (/^postgres(ql)?:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError('DATABASE_URL', `not a valid PostgreSQL URL: ${redactUrl(url)}`);
    }
    const schema = parsed.searchParams.get('schema') ?? 'public';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError('DATABASE_URL', `schema "${schema}" must be a plain SQL identifier`);
    }
    parsed.searchParams.delete('schema');
    return { provider: 'postgresql', url, connectionString: parsed.toString(), schema };
  }
  if (url.startsWith('file:')) {
    const file = url.slice('file:'.length);
    if (!file) throw new ConfigError('DATABASE_URL', 'file: URL needs a path, e.g. file:./data/milepost.db');
    return { provider: 'sqlite', url, file: file === ':memory:' ? file : path.resolve(cwd, file) };
  }
  throw new ConfigError('DATABASE_URL', `must start with file: (SQLite) or postgresql:// (PostgreSQL), got "${redactUrl(url)}"`);
}

function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function parsePort(value: string | undefined, fallback: number): number {
  return isUnset(value) ? fallback : setting('PORT', PORT, value);
}

function parseBoolean(variable: string, value: string | undefined, fallback: boolean): boolean {
  return isUnset(value) ? fallback : setting(variable, FLAG, value);
}

function parsePublicUrl(value: string | undefined): string | null {
  return isUnset(value) ? null : new URL(setting('PUBLIC_URL', HTTP_URL, value)).toString().replace(/\/$/, '');
}

function parseInteger(variable: string, value: string | undefined, fallback: number, min: number, max: number): number {
  return isUnset(value) ? fallback : setting(variable, wholeNumber(min, max), value);
}

function parseRedisUrl(value: string | undefined): string | null {
  return isUnset(value) ? null : setting('REDIS_URL', REDIS_URL, value, 'masked');
}

function parseFederation(env: Env, publicUrl: string | null): Config['federation'] {
  if (!parseBoolean('FEDERATION', env.FEDERATION, false)) return null;
  if (!publicUrl)
    throw new ConfigError(
      'FEDERATION',
      'true needs PUBLIC_URL: the address remote servers reach this one at, whose host name is in every handle (user@host)',
    );
  return {
    origin: publicUrl,
    allowPrivate: parseBoolean('FEDERATION_ALLOW_PRIVATE', env.FEDERATION_ALLOW_PRIVATE, false),
    pollMs: parseInteger('FEDERATION_POLL_MS', env.FEDERATION_POLL_MS, 1000, 50, 600_000),
    retryBaseSeconds: parseInteger('FEDERATION_RETRY_BASE_SECONDS', env.FEDERATION_RETRY_BASE_SECONDS, 60, 1, 3600),
    retryAttempts: parseInteger('FEDERATION_RETRY_ATTEMPTS', env.FEDERATION_RETRY_ATTEMPTS, 10, 1, 20),
  };
}

function parseMail(env: Env, publicUrl: string | null): Config['mail'] {
  if (isUnset(env.SMTP_URL)) return null;
  const smtpUrl = setting('SMTP_URL', SMTP_URL, env.SMTP_URL, 'masked');
  const from = setting(
    'MAIL_FROM',
    MAIL_FROM,
    env.MAIL_FROM || `Milepost <no-reply@${publicUrl ? new URL(publicUrl).hostname : 'localhost'}>`,
  );
  return { smtpUrl, from, pollMs: parseInteger('MAIL_POLL_MS', env.MAIL_POLL_MS, 2000, 50, 600_000) };
}

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '© OpenStreetMap contributors';

function parseTileUrl(value: string | undefined): string {
  return isUnset(value) ? DEFAULT_TILE_URL : setting('MAP_TILE_URL', TILE_URL, value);
}

function parseTrustedDocuments(file: string | undefined): ReadonlyMap<string, string> | null {
  if (!file) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError('TRUSTED_DOCUMENTS', `${file} is not a readable JSON file: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigError('TRUSTED_DOCUMENTS', `${file} must hold one object of id → operation text`);
  const documents = new Map<string, string>();
  for (const [id, text] of Object.entries(parsed)) {
    if (typeof text !== 'string' || !text.trim())
      throw new ConfigError('TRUSTED_DOCUMENTS', `${file}: the operation of "${id}" must be its text`);
    documents.set(id, text);
  }
  return documents;
}

function parseTls(cert: string | undefined, key: string | undefined): Config['tls'] {
  if (!cert && !key) return null;
  if (!cert || !key)
    throw new ConfigError(
      cert ? 'TLS_KEY' : 'TLS_CERT',
      'TLS_CERT and TLS_KEY go together: paths of a PEM certificate (chain) and its private key',
    );
  return { cert, key };
}

function parseSessionSecret(value: string | undefined, env: Config['env'], dataDir: string): string {
  if (!isUnset(value)) return setting('SESSION_SECRET', SESSION_SECRET, value, 'hidden');
  // every process of a deployment must share it, or a log-in would only count on one of them
  if (env === 'production') throw new ConfigError('SESSION_SECRET', 'is required in production (at least 32 random characters)');
  // tests start many servers and keep nothing
  if (env === 'test') return randomBytes(32).toString('base64url');
  return keptSessionSecret(dataDir);
}

/**
 * Outside production without SESSION_SECRET: one made at the first start and kept in the data
 * directory (`session-secret`, mode 0600), so that a restart does not log everyone out. A directory
 * that cannot be written keeps the old way: a secret of this process only.
 */
function keptSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch {
    // none yet
  }
  const made = randomBytes(32).toString('base64url');
  try {
    mkdirSync(dataDir, { recursive: true });
    // `wx`: of two processes starting together, the second reads the first one's
    writeFileSync(file, `${made}\n`, { mode: 0o600, flag: 'wx' });
    return made;
  } catch {
    try {
      const kept = readFileSync(file, 'utf8').trim();
      if (kept.length >= 32) return kept;
    } catch {
      // unreadable: this process's own
    }
    return made;
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function parseLogLevel(value: string | undefined, env: Config['env']): Config['logLevel'] {
  // tests read what they need from their own logger; their output stays quiet by default
  if (isUnset(value)) return env === 'test' ? 'silent' : 'info';
  return setting(
    'LOG_LEVEL',
    z
      .string()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
    value,
  );
}

/** Where the service keeps its own files: beside the SQLite file, else `./data`. */
function dataDirectory(database: DatabaseConfig, cwd = process.cwd()): string {
  if (database.provider === 'sqlite' && database.file !== ':memory:') return path.dirname(database.file);
  return path.resolve(cwd, 'data');
}

function mediaDirectory(value: string | undefined, database: DatabaseConfig, cwd = process.cwd()): string {
  if (value) return path.resolve(cwd, value);
  if (database.provider === 'sqlite' && database.file !== ':memory:') return path.join(path.dirname(database.file), 'media');
  return path.resolve(cwd, 'data/media');
}

/** NODE_ENV, checked. */
function nodeEnvOf(env: Env): Config['env'] {
  return setting('NODE_ENV', NODE_ENV, env.NODE_ENV ?? 'development');
}

/**
 * Only the database to work on (DATABASE_URL), for the commands that need nothing else (backup,
 * restore, migrate): they do not ask for a SESSION_SECRET or any other setting a server needs.
 */
export function loadDatabaseConfig(env: Env = process.env): DatabaseConfig {
  nodeEnvOf(env);
  return parseDatabaseUrl(env.DATABASE_URL || DEFAULT_DATABASE_URL);
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = nodeEnvOf(env);
  const database = parseDatabaseUrl(env.DATABASE_URL || DEFAULT_DATABASE_URL);
  return {
    env: nodeEnv,
    exposeErrors: env.NODE_ENV === 'development',
    host: env.HOST || '0.0.0.0',
    port: parsePort(env.PORT, 3000),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    database,
    graphiql: parseBoolean('GRAPHIQL', env.GRAPHIQL, nodeEnv !== 'production'),
    logQueries: parseBoolean('LOG_QUERIES', env.LOG_QUERIES, false),
    sessionSecret: parseSessionSecret(env.SESSION_SECRET, nodeEnv, dataDirectory(database)),
    rateLimit: {
      points: parseInteger('RATE_LIMIT_PER_HOUR', env.RATE_LIMIT_PER_HOUR, 1500, 1, 10_000_000),
      windowSeconds: parseInteger('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS, 3600, 1, 86_400),
    },
    redisUrl: parseRedisUrl(env.REDIS_URL),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'milepost',
    trustProxy: parseInteger('TRUST_PROXY', env.TRUST_PROXY, 0, 0, 10),
    maintenance: parseBoolean('MAINTENANCE', env.MAINTENANCE, false),
    introspection: parseBoolean('INTROSPECTION', env.INTROSPECTION, nodeEnv !== 'production'),
    trustedDocuments: parseTrustedDocuments(env.TRUSTED_DOCUMENTS),
    tls: parseTls(env.TLS_CERT, env.TLS_KEY),
    requireTls: parseBoolean('REQUIRE_TLS', env.REQUIRE_TLS, false),
    webhooks: {
      pollMs: parseInteger('WEBHOOK_POLL_MS', env.WEBHOOK_POLL_MS, 1000, 50, 600_000),
      retryBaseSeconds: parseInteger('WEBHOOK_RETRY_BASE_SECONDS', env.WEBHOOK_RETRY_BASE_SECONDS, 10, 1, 3600),
      allowPrivate: parseBoolean('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE, false),
    },
    mail: parseMail(env, parsePublicUrl(env.PUBLIC_URL)),
    federation: parseFederation(env, parsePublicUrl(env.PUBLIC_URL)),
    responseCacheMb: parseInteger('RESPONSE_CACHE_MB', env.RESPONSE_CACHE_MB, 32, 0, 4096),
    entryJsonMb: parseInteger('ENTRY_JSON_MB', env.ENTRY_JSON_MB, 8, 0, 1024),
    heapGrowthPercent: parseInteger('HEAP_GROWTH_PERCENT', env.HEAP_GROWTH_PERCENT, 20, 0, 300),
    mediaDir: mediaDirectory(env.MEDIA_DIR, database),
    mapTiles: { url: parseTileUrl(env.MAP_TILE_URL), attribution: env.MAP_ATTRIBUTION || DEFAULT_TILE_ATTRIBUTION },
    logLevel: parseLogLevel(env.LOG_LEVEL, nodeEnv),
    metricsToken: env.METRICS_TOKEN || null,
    metricsPublic: parseBoolean('METRICS_PUBLIC', env.METRICS_PUBLIC, nodeEnv !== 'production'),
    tokenLifetimes: {
      accessSeconds: parseInteger('ACCESS_TOKEN_TTL_SECONDS', env.ACCESS_TOKEN_TTL_SECONDS, 6 * 3600, 60, 365 * 86_400),
      refreshSeconds: parseInteger('REFRESH_TOKEN_TTL_SECONDS', env.REFRESH_TOKEN_TTL_SECONDS, 180 * 86_400, 60, 10 * 365 * 86_400),
      reuseSeconds: parseInteger('REFRESH_REUSE_SECONDS', env.REFRESH_REUSE_SECONDS, 30, 0, 300),
    },
  };
}
