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

/** Where `viewerId` stands with `personId`: friends, a request either way, or none (three counts, read together). */
export async function friendshipStatus(
  prisma: Prisma,
  viewerId: number,
  personId: number,
): Promise<'none' | 'requested' | 'incoming' | 'friends'> {
  const [friends, asked, askedBy] = await prisma.$transaction([
    prisma.friendship.count({ where: { personId: viewerId, friendId: personId } }),
    prisma.friendRequest.count({ where: { fromId: viewerId, toId: personId } }),
    prisma.friendRequest.count({ where: { fromId: personId, toId: viewerId } }),
  ]);
  if (friends > 0) return 'friends';
  if (asked > 0) return 'requested';
  return askedBy > 0 ? 'incoming' : 'none';
}
