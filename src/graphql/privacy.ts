// Privacy zones applied on read (issue 21): what a viewer receives of another person's tracks and
// places. The owner receives everything; anyone else, the points and positions outside the owner's
// zones and away from their tracks' ends (domain/privacy-zones.ts). Distances and durations stay
// those of the whole track.
import { hidesAnything, NO_PRIVACY, type PrivacySettings } from '../domain/privacy-zones.ts';
import type { Context } from './context.ts';
import { privacyOf, trackOwner } from './loaders.ts';

/** The settings that apply to what the viewer receives of `ownerId`'s places: none for the owner. */
export async function privacyFor(context: Context, ownerId: number): Promise<PrivacySettings> {
  if (context.viewer?.id === ownerId) return NO_PRIVACY;
  return privacyOf(context, ownerId);
}

/** The settings that apply to what the viewer receives of an entry's places: from its page when it carried them. */
export async function entryPrivacy(
  context: Context,
  entry: { authorId: number; authorPrivacy?: PrivacySettings },
): Promise<PrivacySettings> {
  if (context.viewer?.id === entry.authorId) return NO_PRIVACY;
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
  const settings = context.viewer?.id === owner ? NO_PRIVACY : (track.ownerPrivacy ?? (await privacyOf(context, owner)));
  return hidesAnything(settings) ? settings : null;
}

/** A track's packed points when its object was loaded without them (its polyline, drawn again without the hidden parts). */
export async function pointDataOf(context: Context, track: OwnedTrack & { pointData?: Uint8Array | null }): Promise<Uint8Array | null> {
  return track.pointData !== undefined ? track.pointData : (await trackOwner(context, track.id)).pointData;
}
