// Deleting a person's account: the person and everything they own, in one transaction. The schema's
// cascades remove what hangs off the person (entries with their workouts, tracks, comments and likes
// by anyone, the person's own comments and likes, routes, friendships both ways, requests, sessions,
// tokens, codes, idempotency keys, privacy zones); the apps they registered are deleted first (the
// schema keeps an app whose owner leaves otherwise), and with them every token and webhook delivery
// of those apps, and reports of what goes. Photos are files: the caller removes the ones no remaining
// entry shows.
import { mediaName } from '../media/store.ts';
import type { Prisma, Transaction } from './database.ts';

export interface DeletedAccount {
  entries: number;
  apps: number;
  /** Media paths of the person's photos that no remaining entry shows: to remove from the media store. */
  unusedMedia: string[];
  /** Stored names of archives the person uploaded for import (MEDIA_DIR/imports): to remove. */
  importFiles: string[];
}

export async function deleteAccount(prisma: Prisma, personId: number): Promise<DeletedAccount> {
  return prisma.$transaction(async (tx) => {
    const media = await tx.entry.findMany({
      where: { authorId: personId, OR: [{ mediaUrl: { not: null } }, { mediaPreviewUrl: { not: null } }] },
      select: { mediaUrl: true, mediaPreviewUrl: true },
    });
    const entries = await tx.entry.count({ where: { authorId: personId } });
    const jobs = await tx.importJob.findMany({ where: { personId }, select: { storedName: true } });
    const apps = await tx.oAuthClient.deleteMany({ where: { ownerId: personId } });
    // reports of what goes with the account (their entries, their comments, comments on their entries)
    // go too: a moderation queue must not keep the deleted words, nor offer to act on nothing
    await tx.$executeRaw`DELETE FROM "Report" WHERE ("targetKind" = 'entry' AND "targetId" IN (SELECT "id" FROM "Entry" WHERE "authorId" = ${personId}))
      OR ("targetKind" = 'comment' AND "targetId" IN (SELECT c."id" FROM "Comment" c JOIN "Entry" e ON e."id" = c."entryId"
        WHERE c."authorId" = ${personId} OR e."authorId" = ${personId}))`;
    const { photoUrl } = await tx.person.delete({ where: { id: personId }, select: { photoUrl: true } });
    // a photo is stored once however many entries (or avatars) show it: its name is its digest
    const avatar = photoUrl && mediaName(photoUrl) ? photoUrl : null;
    const paths = [...new Set([...media.flatMap((m) => [m.mediaUrl, m.mediaPreviewUrl]), avatar].filter((p): p is string => p !== null))];
    return { entries, apps: apps.count, unusedMedia: await unusedMedia(tx, paths), importFiles: jobs.map((j) => j.storedName) };
  });
}

/** Of `paths` (media paths), those no entry and no avatar shows any more: files to remove from the media store. */
export async function unusedMedia(prisma: Prisma | Transaction, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const stillShown = await prisma.entry.findMany({
    where: { OR: [{ mediaUrl: { in: [...paths] } }, { mediaPreviewUrl: { in: [...paths] } }] },
    select: { mediaUrl: true, mediaPreviewUrl: true },
  });
  const avatars = await prisma.person.findMany({ where: { photoUrl: { in: [...paths] } }, select: { photoUrl: true } });
  const kept = new Set([...stillShown.flatMap((m) => [m.mediaUrl, m.mediaPreviewUrl]), ...avatars.map((p) => p.photoUrl)]);
  return paths.filter((p) => !kept.has(p));
}
