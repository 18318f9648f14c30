// What the pages' forms share: their fields, a mutation's failure as a form shows it, and the answer
// that leads on after a done form (303 See Other).
import type { FieldIssue } from '../domain/errors.ts';

/** What a mutation of these forms answers: its typed failure, if any. */
export type Outcome = {
  data?: { result: { error?: Failure | null } } | null;
  errors?: ReadonlyArray<{ message: string }>;
};
type Failure = { errorMessage: string; issues?: Array<{ path: string; message: string }> | null };

/** A mutation's failure as the form shows it: each field named, or the one sentence. */
export function issuesOf(outcome: Outcome): FieldIssue[] | null {
  if (outcome.errors?.length) return [{ path: 'form', message: outcome.errors[0]!.message }];
  const failure = outcome.data?.result.error;
  if (!failure) return null;
  return failure.issues?.length ? failure.issues : [{ path: 'form', message: failure.errorMessage }];
}

export const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

/** A form's fields (and files). */
export type Form = Map<string, string | File>;
export const field = (form: Form, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
