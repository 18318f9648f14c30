// Look-ups that turn an id or a username from the client into a row that must exist.
import { usernameKey } from '../domain/accounts.ts';
import { NotFoundError } from '../domain/errors.ts';
import { friendshipMatters, maySee, type Visible } from '../domain/visibility.ts';
import type { Context } from './context.ts';

/**
 * May the viewer see this entry (domain/visibility.ts)? The friendship is read only when the answer
 * depends on it: a friends-only entry and a viewer who is not its author.
 */
export async function viewerMaySee(context: Context, entry: Visible): Promise<boolean> {
  const viewerId = context.viewer?.id ?? null;
  const ownPrivate = context.viewer?.scopes.has('read_all') ?? false;
  if (!friendshipMatters(entry, viewerId)) return maySee(entry, viewerId, false, ownPrivate);
  const friends = await context.prisma.friendship.count({ where: { personId: viewerId!, friendId: entry.authorId } });
  return maySee(entry, viewerId, friends > 0, ownPrivate);
}

/** The entry `entryId` when the viewer may see it; a hidden entry is missing, exactly like one that never was. */
export async function requireEntry(context: Context, entryId: number): Promise<void> {
  const entry = await context.prisma.entry.findUnique({ where: { id: entryId }, select: { authorId: true, visibility: true } });
  if (!entry || !(await viewerMaySee(context, entry))) throw new NotFoundError('entry', String(entryId));
}

/** The id of the person with this username, in any letter case. */
export async function requirePersonId(context: Context, username: string): Promise<number> {
  const person = await context.prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: { id: true } });
  if (!person) throw new NotFoundError('person', username);
  return person.id;
}
