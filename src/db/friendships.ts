import type { Prisma } from './database.ts';

/** Makes two people friends both ways, replacing any requests between them, in one transaction. */
export async function befriend(prisma: Prisma, a: number, b: number): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await tx.friendRequest.deleteMany({ where: { OR: [{ fromId: a, toId: b }, { fromId: b, toId: a }] } });
    await tx.friendship.deleteMany({ where: { OR: [{ personId: a, friendId: b }, { personId: b, friendId: a }] } });
    await tx.friendship.createMany({ data: [{ personId: a, friendId: b }, { personId: b, friendId: a }] });
  });
}
