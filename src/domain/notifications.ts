// What people hear of (src/db/notifications.ts writes them): the kinds, how unread ones group, who a
// message mentions, and what a notification says. No I/O.

export const NOTIFICATION_KINDS = ['comment', 'reply', 'like', 'friend_request', 'friend_accepted', 'mention'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * What unread notifications of a kind are one row by: comments, replies, likes and mentions by their
 * entry ("Jo and 4 others liked your entry"), friendships by the other person (each its own).
 */
export function groupKey(kind: NotificationKind, entryId: number | null, actorId: number): string {
  return entryId !== null && kind !== 'friend_request' && kind !== 'friend_accepted'
    ? `${kind}:entry:${entryId}`
    : `${kind}:person:${actorId}`;
}

/** Mentions a message may make at most; more are not heard of. */
export const MENTIONS_MAX = 10;
/** `@username` as the pages link it: a username's characters, after a start or a non-word character. */
export const MENTION = /(^|[^\p{L}\p{N}_@])@([A-Za-z0-9_]{2,30})\b/gu;

/** The usernames `text` mentions, lower-case, each once, at most MENTIONS_MAX. */
export function mentionedUsernames(text: string | null | undefined): string[] {
  if (!text) return [];
  const names = [...text.matchAll(MENTION)].map((match) => match[2]!.toLowerCase());
  return [...new Set(names)].slice(0, MENTIONS_MAX);
}

const WHAT: Record<NotificationKind, string> = {
  comment: 'commented on your entry',
  reply: 'also commented on an entry you commented on',
  like: 'liked your entry',
  friend_request: 'asked to be your friend',
  friend_accepted: 'accepted your friend request',
  mention: 'mentioned you',
};

/** What a notification says: `Jo liked your entry`, `Jo and 4 others liked your entry`. */
export function notificationText(kind: NotificationKind, actor: string, actorCount: number): string {
  const others = actorCount - 1;
  const who = others > 0 ? `${actor} and ${others} other${others === 1 ? '' : 's'}` : actor;
  return `${who} ${WHAT[kind]}`;
}
