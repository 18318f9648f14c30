// Global object identification (the Relay spec): every object with an identity has an opaque `id`
// that names its type and row (`base64("Entry:42")`), and `node(id:)`/`nodes(ids:)` fetch any of them
// again. The row's own number stays readable as `databaseId`, and an argument that names an object
// takes either: its global id, or the number as decimal digits (what the REST layer, which keeps its
// integer ids, and clients written before global ids send).
//
// `node` answers only what the viewer may reach by other paths: an entry they may see (its
// visibility), a comment or like of such an entry, their own privacy zones and notifications, any
// person (but one who blocked them) or route, gear of their own or of a workout they may see.
// Anything else is null, exactly like an id that never existed.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { readSeenGear } from '../db/gear.ts';
import { NotAuthorizedError, NotFoundError } from '../domain/errors.ts';
import { type Context, readerOf, readsAsOwner, requireViewer } from './context.ts';
import { blockedByPerson, viewerMaySee } from './lookups.ts';

/** The types that implement `Node`. */
export const NODE_TYPES = ['Person', 'Entry', 'Comment', 'Like', 'Route', 'Gear', 'PrivacyZone', 'Notification', 'Report'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** At most this many ids in one `nodes(ids:)`. */
export const MAX_NODES = 100;

const DIGITS = /^[1-9][0-9]{0,14}$/;

/**
 * The row an argument names: a global id of `type`, or a database id (a whole number, or its decimal
 * digits). Null when it names no object of that type: a malformed value, another type's global id.
 */
export function databaseIdOf(value: string | number, type: NodeType): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (DIGITS.test(value)) return Number(value);
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(value);
  } catch {
    return null;
  }
  return decoded.typename === type && DIGITS.test(decoded.id) ? Number(decoded.id) : null;
}

/** Whether the viewer may reach the object `type`/`id` (see above); false for a type that is not a node. */
export async function mayReach(context: Context, type: string, id: string): Promise<boolean> {
  if (!DIGITS.test(id)) return false;
  const row = Number(id);
  switch (type as NodeType) {
    // a row that is gone is not reached (the node loader would throw for it): null, as for the other types
    case 'Person':
      return (
        (await context.prisma.person.findUnique({ where: { id: row }, select: { id: true } })) !== null &&
        !(await blockedByPerson(context, row))
      );
    case 'Route': {
      const route = await context.prisma.route.findUnique({ where: { id: row }, select: { ownerId: true } });
      return route !== null && !(await blockedByPerson(context, route.ownerId));
    }
    case 'Gear': {
      const gear = await context.prisma.gear.findUnique({ where: { id: row }, select: { id: true, ownerId: true } });
      return gear !== null && mayReachGear(context, gear);
    }
    case 'Entry': {
      const entry = await context.prisma.entry.findUnique({ where: { id: row }, select: { authorId: true, visibility: true } });
      return entry !== null && viewerMaySee(context, entry);
    }
    case 'Comment': {
      const comment = await context.prisma.comment.findUnique({
        where: { id: row },
        select: { entry: { select: { authorId: true, visibility: true } } },
      });
      return comment !== null && viewerMaySee(context, comment.entry);
    }
    case 'Like': {
      const like = await context.prisma.like.findUnique({
        where: { id: row },
        select: { entry: { select: { authorId: true, visibility: true } } },
      });
      return like !== null && viewerMaySee(context, like.entry);
    }
    case 'Report': {
      if (!context.viewer) return false;
      const person = await context.prisma.person.findUnique({ where: { id: context.viewer.id }, select: { role: true } });
      return person?.role === 'moderator';
    }
    case 'Notification': {
      if (!context.viewer) return false;
      const notification = await context.prisma.notification.findUnique({ where: { id: row }, select: { personId: true } });
      return notification?.personId === context.viewer.id;
    }
    case 'PrivacyZone': {
      if (!context.viewer) return false;
      const zone = await context.prisma.privacyZone.findUnique({ where: { id: row }, select: { personId: true } });
      return zone !== null && readsAsOwner(context, zone.personId);
    }
    default:
      return false;
  }
}

/** Whether the viewer may see a piece of gear: their own, or one used in a workout they may see. */
export async function mayReachGear(context: Context, gear: { id: number; ownerId: number }): Promise<boolean> {
  return context.viewer?.id === gear.ownerId || (await readSeenGear(context, readerOf(context), [gear.id])).has(gear.id);
}

/** The row an argument names (see databaseIdOf), or the typed NotFoundError a mutation answers for none. */
export function requireDatabaseId(value: string | number, type: NodeType, what: string): number {
  const id = databaseIdOf(value, type);
  if (id === null) throw new NotFoundError(what, String(value));
  return id;
}

/**
 * The row of one of the viewer's objects (a route, a piece of gear) by the id the client sent: one that
 * is not there is a NotFoundError, another person's a NotAuthorizedError.
 */
export async function requireOwnRow(
  context: Context,
  value: string | number,
  type: NodeType,
  what: string,
  action: string,
  ownerOf: (row: number) => Promise<{ ownerId: number } | null>,
): Promise<number> {
  const viewer = requireViewer(context);
  const row = requireDatabaseId(value, type, what);
  const found = await ownerOf(row);
  if (!found) throw new NotFoundError(what, String(value));
  if (found.ownerId !== viewer.id) throw new NotAuthorizedError(`only the owner may ${action} this ${what}`);
  return row;
}

/** How an argument naming an object is described. */
export const namesObject = (type: NodeType) => `The ${type}'s global \`id\`, or its \`databaseId\`.`;
