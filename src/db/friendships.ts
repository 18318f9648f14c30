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
