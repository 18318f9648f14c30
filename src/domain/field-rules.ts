// The field rules of writes as zod schemas: one way to say what a field must be, and one way to turn
// what a schema refuses into the FieldIssues every API answers with (paths as the GraphQL input names
// them, `workout.distance.value`; the REST layer renames them to its brackets). The rules that weigh
// one field against another, or against what is stored, are the refinements of the schemas that use these.
import { z } from 'zod';
import { type FieldIssue, ValidationError } from './errors.ts';

/** What `schema` makes of `input`, or a ValidationError with every issue it found, in the input's order. */
export function checked<T>(schema: z.ZodType<T>, input: unknown): T {
  const read = schema.safeParse(input);
  if (read.success) return read.data;
  throw new ValidationError(issuesOf(read.error));
}

/** A zod error's issues as FieldIssues. */
function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/** Text trimmed, of at most `max` characters; blank or absent is none (null). */
export const optionalText = (max: number) =>
  z
    .string()
    .nullish()
    .transform((value) => value?.trim() ?? '')
    .pipe(z.string().max(max, { error: `must be at most ${max} characters` }))
    .transform((text) => text || null);

/** A whole number, 0 or more; absent is none (null). */
export const countOrNone = z
  .number()
  .refine((value) => Number.isSafeInteger(value) && value >= 0, { error: 'must be a whole number, 0 or more' })
  .nullish()
  .transform((value) => value ?? null);

/** A distance's number: finite, 0 or more. */
export const distanceValue = z.number().refine((value) => Number.isFinite(value) && value >= 0, { error: 'must be a number, 0 or more' });

export const latitude = z.number().refine((value) => Number.isFinite(value) && value >= -90 && value <= 90, {
  error: 'must be a latitude between -90 and 90',
});
export const longitude = z.number().refine((value) => Number.isFinite(value) && value >= -180 && value <= 180, {
  error: 'must be a longitude between -180 and 180',
});

/** Adds an issue at `path` to a refinement's context. */
export function refuse(context: z.RefinementCtx, path: Array<string | number>, message: string): void {
  context.addIssue({ code: 'custom', path, message });
}
