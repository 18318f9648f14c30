// Who sees an entry: the one rule every read path applies. No I/O: whether the viewer is the
// author's friend is asked by the caller, and only when the answer matters (friendshipMatters).
//
// - `everyone`: anyone, with or without a token.
// - `friends`: the author and the people they are friends with.
// - `only_me`: the author.
//
// A block (one person keeping another away) comes before all of these: between the two, neither sees
// the other's entries, whatever their visibility (a person without a token still sees public ones).
//
// A stored value this code does not know is treated as `only_me`: a privacy rule fails closed.
// The SQL of a page applies the same rule (db/visibility-sql.ts); the read-path test walks both.

export const VISIBILITIES = ['everyone', 'friends', 'only_me'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** What entries were before the setting existed, and what a person's default is until they choose one. */
export const DEFAULT_VISIBILITY: Visibility = 'everyone';

export interface Visible {
  authorId: number;
  visibility: string;
}

/** Whether seeing `entry` depends on a friendship: a friends-only entry and a viewer who is not its author. */
export function friendshipMatters(entry: Visible, viewerId: number | null): boolean {
  return entry.visibility === 'friends' && viewerId !== null && viewerId !== entry.authorId;
}

/** Whether a block could matter: a viewer with a token who is not the author. */
export function blockMatters(entry: Visible, viewerId: number | null): boolean {
  return viewerId !== null && viewerId !== entry.authorId;
}

/**
 * May the viewer (`viewerId`, null without a token) see `entry`? `blocked` says whether one of the
 * viewer and the author blocked the other (read only when blockMatters). `areFriends` says whether the viewer
 * and the author are friends; it is read only when friendshipMatters. `ownPrivate` says whether the
 * viewer's token may read what only its person sees (the scope `read_all`): without it, the author's
 * own only-me entries are hidden from the app, as from anyone else.
 */
export function maySee(entry: Visible, viewerId: number | null, areFriends = false, ownPrivate = true, blocked = false): boolean {
  if (blocked && viewerId !== entry.authorId) return false;
  if (entry.visibility === 'everyone') return true;
  if (viewerId === null) return false;
  if (viewerId === entry.authorId) return ownPrivate || entry.visibility === 'friends';
  return entry.visibility === 'friends' && areFriends;
}
