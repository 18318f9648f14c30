// The service's logger: one JSON line per event on stdout (pretty in development). Credentials never
// reach it: the request line carries the route pattern and path, never the query string, and any
// field named like a credential is censored wherever it sits.
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

/** Keys whose values are secrets, at any depth of a logged object. */
const SECRET_KEYS = ['oauth_token', 'access_token', 'refresh_token', 'code', 'client_secret', 'password', 'authorization', 'cookie', 'token'];

export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

export function createLogger(config: Pick<Config, 'env' | 'logLevel'>, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level: config.logLevel,
    base: { pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (destination) return pino(options, destination as pino.DestinationStream);
  if (config.env === 'development') return pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid' } } });
  return pino(options);
}

/** A URL with credential-like query parameters censored: for messages that must show one. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    for (const key of [...parsed.searchParams.keys()]) if (SECRET_KEYS.includes(key.toLowerCase())) parsed.searchParams.set(key, '[redacted]');
    return parsed.toString();
  } catch {
    return '[unparseable URL]';
  }
}
