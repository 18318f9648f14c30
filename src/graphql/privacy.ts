// Privacy zones applied on read: what a viewer receives of another person's tracks and
// places. The owner receives everything; anyone else, the points and positions outside the owner's
// zones and away from their tracks' ends (domain/privacy-zones.ts), and figures (count, distance,
// times) that describe only those points, so that none tells how much was cut.
import type { Point } from '../domain/geo.ts';
import { hidesAnything, hidesPlace, insideZone, NO_PRIVACY, type PrivacySettings } from '../domain/privacy-zones.ts';
import { trackWork } from '../tracks/pool.ts';
import type { Shown } from '../tracks/work.ts';
import { type Context, readsAsOwner } from './context.ts';
import { privacyOf, trackOfEntry, trackOwner, trackPoints } from './loaders.ts';

/** The settings that apply to what the viewer receives of `ownerId`'s places: none for the owner. */
export async function privacyFor(context: Context, ownerId: number): Promise<PrivacySettings> {
  if (readsAsOwner(context, ownerId)) return NO_PRIVACY;
  return privacyOf(context, ownerId);
}

/** The settings that apply to what the viewer receives of an entry's places: from its page when it carried them. */
export async function entryPrivacy(
  context: Context,
  entry: { authorId: number; authorPrivacy?: PrivacySettings },
): Promise<PrivacySettings> {
  if (readsAsOwner(context, entry.authorId)) return NO_PRIVACY;
  return entry.authorPrivacy ?? privacyOf(context, entry.authorId);
}

/** A track as its fields see it: an entry's carries its owner and, from a page, their settings (see Entry.track); a route's is looked up. */
export interface OwnedTrack {
  id: number;
  ownerId?: number;
  ownerPrivacy?: PrivacySettings;
}

/** The owner of a track. */
export async function ownerOfTrack(context: Context, track: OwnedTrack): Promise<number> {
  return track.ownerId ?? (await trackOwner(context, track.id)).ownerId;
}

/** The settings that apply to the viewer for this track, and whether they hide anything. */
export async function trackPrivacy(context: Context, track: OwnedTrack): Promise<PrivacySettings | null> {
  const owner = await ownerOfTrack(context, track);
  const settings = readsAsOwner(context, owner) ? NO_PRIVACY : (track.ownerPrivacy ?? (await privacyOf(context, owner)));
  return hidesAnything(settings) ? settings : null;
}

/** A track's packed points when its object was loaded without them (its polyline, drawn again without the hidden parts). */
export async function pointDataOf(context: Context, track: OwnedTrack & { pointData?: Uint8Array | null }): Promise<Uint8Array | null> {
  return track.pointData !== undefined ? track.pointData : (await trackPoints(context, track.id)).pointData;
}

/** What a viewer receives of a track that its owner hides part of from them (tracks/work.ts). */
export interface ShownTrack extends Shown {
  settings: PrivacySettings;
}

/** A track as its fields see it, with what they may have loaded of it. */
type LoadedTrack = OwnedTrack & { pointData?: Uint8Array | null; pointCount?: number };

/** A track's point count, which decides where its work is done (tracks/pool.ts). */
export async function pointCountOf(context: Context, track: LoadedTrack): Promise<number> {
  return track.pointCount ?? (await trackOwner(context, track.id)).pointCount;
}

// one decoding a track object: its fields (count, distance, times, polyline) ask for it in turn
const shownTracks = new WeakMap<object, Promise<ShownTrack | null>>();

/** The part of a track the viewer receives, or null when nothing of it is hidden from them. */
export function shownTrack(context: Context, track: LoadedTrack): Promise<ShownTrack | null> {
  let shown = shownTracks.get(track);
  if (!shown) {
    shown = (async () => {
      const settings = await trackPrivacy(context, track);
      if (!settings) return null;
      const pointData = await pointDataOf(context, track);
      return { settings, ...(await trackWork({ kind: 'shown', pointData, settings }, await pointCountOf(context, track))) };
    })();
    shownTracks.set(track, shown);
  }
  return shown;
}

/**
 * Whether an entry's position is hidden from the viewer, by its author's `settings`: the one rule for
 * Entry.geo, the nearby search and its subscription. Inside a zone; or, when the author hides their
 * tracks' ends, near the start or finish of the entry's track (a workout posted where it began).
 */
export async function entryPlaceHidden(
  context: Context,
  entry: { id: number; authorId: number },
  place: Point,
  settings: PrivacySettings,
): Promise<boolean> {
  if (readsAsOwner(context, entry.authorId)) return false;
  if (insideZone(place, settings.zones)) return true;
  if (settings.endsMeters <= 0) return false;
  const track = await trackOfEntry(context, entry.id);
  if (!track) return false;
  const shown = await shownTrack(context, { id: track.id, ownerId: entry.authorId, pointCount: track.pointCount });
  return shown !== null && hidesPlace(place, settings, shown.ends);
}
