import type { Prisma } from './database.ts';
import { isUniqueViolation } from './errors.ts';

/**
 * Makes two people friends both ways, replacing any requests between them, in one transaction. Two
 * of these racing (both accept, or both asked at once) insert the same rows: the loser's unique
 * violation means the winner already made them friends, which is the outcome both wanted.
 */
export async function befriend(prisma: Prisma, a: number, b: number): Promise<void> {
  try {
    await prisma.$transaction(async (tx) => {
      await tx.friendRequest.deleteMany({
        where: {
          OR: [
            { fromId: a, toId: b },
            { fromId: b, toId: a },
          ],
        },
      });
      await tx.friendship.deleteMany({
        where: {
          OR: [
            { personId: a, friendId: b },
            { personId: b, friendId: a },
          ],
        },
      });
      await tx.friendship.createMany({
        data: [
          { personId: a, friendId: b },
          { personId: b, friendId: a },
        ],
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // the racing transaction committed the friendship; its requests went with it
    await prisma.friendRequest.deleteMany({
      where: {
        OR: [
          { fromId: a, toId: b },
          { fromId: b, toId: a },
        ],
      },
    });
  }
}

export type FriendshipStatus = 'none' | 'requested' | 'incoming' | 'friends';

/** Where `viewerId` stands with each of `personIds`: friends, a request either way, or none (three reads, together). */
export async function friendshipStatuses(
  prisma: Prisma,
  viewerId: number,
  personIds: readonly number[],
): Promise<Map<number, FriendshipStatus>> {
  const ids = [...new Set(personIds)];
  const [friends, asked, askedBy] = await prisma.$transaction([
    prisma.friendship.findMany({ where: { personId: viewerId, friendId: { in: ids } }, select: { friendId: true } }),
    prisma.friendRequest.findMany({ where: { fromId: viewerId, toId: { in: ids } }, select: { toId: true } }),
    prisma.friendRequest.findMany({ where: { fromId: { in: ids }, toId: viewerId }, select: { fromId: true } }),
  ]);
  const statuses = new Map<number, FriendshipStatus>(ids.map((id) => [id, 'none']));
  for (const { fromId } of askedBy) statuses.set(fromId, 'incoming');
  for (const { toId } of asked) statuses.set(toId, 'requested');
  for (const { friendId } of friends) statuses.set(friendId, 'friends');
  return statuses;
}

/**
 * `blockerId` blocks `blockedId`, in one transaction: the block, and the end of any friendship and of
 * any request between them. Whether they were friends (for the event that says so). Blocking twice is
 * the first block.
 */
export async function block(prisma: Prisma, blockerId: number, blockedId: number): Promise<{ wereFriends: boolean }> {
  return prisma.$transaction(async (tx) => {
    const pair = (a: 'personId' | 'fromId', b: 'friendId' | 'toId') => ({
      OR: [
        { [a]: blockerId, [b]: blockedId },
        { [a]: blockedId, [b]: blockerId },
      ],
    });
    const ended = await tx.friendship.deleteMany({ where: pair('personId', 'friendId') });
    await tx.friendRequest.deleteMany({ where: pair('fromId', 'toId') });
    await tx.block.upsert({
      where: { blockerId_blockedId: { blockerId, blockedId } },
      create: { blockerId, blockedId },
      update: {},
      select: { blockerId: true },
    });
    return { wereFriends: ended.count > 0 };
  });
}
