// Look-ups that turn an id or a username from the client into a row that must exist.
import { usernameKey } from '../domain/accounts.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { Context } from './context.ts';

export async function requireEntry(context: Context, entryId: number): Promise<void> {
  const entry = await context.prisma.entry.findUnique({ where: { id: entryId }, select: { id: true } });
  if (!entry) throw new NotFoundError('entry', String(entryId));
}

/** The id of the person with this username, in any letter case. */
export async function requirePersonId(context: Context, username: string): Promise<number> {
  const person = await context.prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: { id: true } });
  if (!person) throw new NotFoundError('person', username);
  return person.id;
}
