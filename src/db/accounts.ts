// Deleting a person's account: the person and everything they own, in one transaction. The schema's
// cascades remove what hangs off the person (entries with their workouts, tracks, comments and likes
// by anyone, the person's own comments and likes, routes, friendships both ways, requests, sessions,
// tokens, codes, idempotency keys, privacy zones); the apps they registered are deleted first (the
// schema keeps an app whose owner leaves otherwise), and with them every token and webhook delivery
// of those apps. Photos are files: the caller removes the ones no remaining entry shows.
import { mediaName } from '../media/store.ts';
import type { Prisma } from './database.ts';

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
    const { photoUrl } = await tx.person.delete({ where: { id: personId }, select: { photoUrl: true } });
    // a photo is stored once however many entries (or avatars) show it: its name is its digest
    const avatar = photoUrl && mediaName(photoUrl) ? photoUrl : null;
    const paths = [...new Set([...media.flatMap((m) => [m.mediaUrl, m.mediaPreviewUrl]), avatar].filter((p): p is string => p !== null))];
    const stillShown = paths.length
      ? await tx.entry.findMany({
          where: { OR: [{ mediaUrl: { in: paths } }, { mediaPreviewUrl: { in: paths } }] },
          select: { mediaUrl: true, mediaPreviewUrl: true },
        })
      : [];
    const avatars = paths.length ? await tx.person.findMany({ where: { photoUrl: { in: paths } }, select: { photoUrl: true } }) : [];
    const kept = new Set([...stillShown.flatMap((m) => [m.mediaUrl, m.mediaPreviewUrl]), ...avatars.map((p) => p.photoUrl)]);
    return { entries, apps: apps.count, unusedMedia: paths.filter((p) => !kept.has(p)), importFiles: jobs.map((j) => j.storedName) };
  });
}
