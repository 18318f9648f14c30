// Look-ups that turn an id or a username from the client into a row that must exist.
import { usernameKey } from '../domain/accounts.ts';
import { NotFoundError } from '../domain/errors.ts';
import { blockMatters, friendshipMatters, maySee, type Visible } from '../domain/visibility.ts';
import { type Context, liveContexts } from './context.ts';

/**
 * May the viewer see this entry (domain/visibility.ts)? The friendship is read only when the answer
 * depends on it: a friends-only entry and a viewer who is not its author.
 */
export async function viewerMaySee(context: Context, entry: Visible): Promise<boolean> {
  const viewerId = context.viewer?.id ?? null;
  const ownPrivate = context.viewer?.scopes.has('read_all') ?? false;
  const blocked = blockMatters(entry, viewerId) && (await blocksOf(context)).with.has(entry.authorId);
  if (!friendshipMatters(entry, viewerId)) return maySee(entry, viewerId, false, ownPrivate, blocked);
  const friends = await context.prisma.friendship.count({ where: { personId: viewerId!, friendId: entry.authorId } });
  return maySee(entry, viewerId, friends > 0, ownPrivate, blocked);
}

/** The viewer's blocks: everyone they blocked or who blocked them (`with`), and who blocked them (`by`). */
export interface Blocks {
  readonly with: ReadonlySet<number>;
  readonly by: ReadonlySet<number>;
}

const NO_BLOCKS: Blocks = { with: new Set(), by: new Set() };
/** A request's (or a subscription's) blocks, read once and again after BLOCKS_FRESH_MS: a live subscription sees a new block soon. */
const blocksRead = new WeakMap<Context, { at: number; blocks: Promise<Blocks> }>();
const BLOCKS_FRESH_MS = 5_000;

/** The viewer's blocks, in one statement a request (none without a viewer). */
export function blocksOf(context: Context): Promise<Blocks> {
  const viewerId = context.viewer?.id;
  // nobody to read for a viewer in no block (their token's person said so), but a subscription may outlive that
  if (viewerId === undefined || (context.viewer!.keptApart === false && !liveContexts.has(context))) return Promise.resolve(NO_BLOCKS);
  const known = blocksRead.get(context);
  if (known && Date.now() - known.at < BLOCKS_FRESH_MS) return known.blocks;
  const blocks = context.prisma.block
    .findMany({ where: { OR: [{ blockerId: viewerId }, { blockedId: viewerId }] }, select: { blockerId: true, blockedId: true } })
    .then((rows) => ({
      with: new Set(rows.map((row) => (row.blockerId === viewerId ? row.blockedId : row.blockerId))),
      by: new Set(rows.filter((row) => row.blockedId === viewerId).map((row) => row.blockerId)),
    }));
  blocksRead.set(context, { at: Date.now(), blocks });
  return blocks;
}

/** Forgets the viewer's blocks read so far: a live subscription told of a new block reads them again. */
export function forgetBlocks(context: Context): void {
  blocksRead.delete(context);
}

/** Whether `personId` blocked the viewer: to the viewer, that person does not exist. */
export async function blockedByPerson(context: Context, personId: number): Promise<boolean> {
  return (await blocksOf(context)).by.has(personId);
}

/** The entry `entryId` (who wrote it, who sees it) when the viewer may see it; a hidden entry is missing, exactly like one that never was. */
export async function requireEntry(
  context: Context,
  entryId: number,
  sent: string | number = entryId,
): Promise<{ id: number; authorId: number; visibility: string }> {
  const entry = await context.prisma.entry.findUnique({ where: { id: entryId }, select: { id: true, authorId: true, visibility: true } });
  if (!entry || !(await viewerMaySee(context, entry))) throw new NotFoundError('entry', String(sent));
  return entry;
}

/** The id of the person with this username, in any letter case. */
export async function requirePersonId(context: Context, username: string): Promise<number> {
  const person = await context.prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: { id: true } });
  // someone who blocked the viewer is missing to them, exactly like nobody by that name
  if (!person || (await blockedByPerson(context, person.id))) throw new NotFoundError('person', username);
  return person.id;
}
