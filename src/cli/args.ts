// A small, strict option parser: unknown options are errors, not silently ignored.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { ValidationError } from '../domain/errors.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseOptions<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return n;
}

/** Prints each invalid field the way the options are spelled (`display_name` → `display-name`); exit status 1. */
export function reportInvalid(command: string, error: ValidationError): number {
  for (const issue of error.issues) console.error(`milepost ${command}: ${issue.path.replaceAll('_', '-')}: ${issue.message}`);
  return 1;
}
