import { ACTIVITY_TYPES, DISTANCE_UNITS, type DistanceUnits, FEELINGS, storedValue } from '../../domain/activity.ts';
import { hidesAnything, type PrivacySettings } from '../../domain/privacy-zones.ts';
import { fromMeters } from '../../domain/units.ts';
import { builder } from '../builder.ts';
import { type Context, readsAsOwner } from '../context.ts';
import { trackOfEntry } from '../loaders.ts';
import { entryPrivacy, ownerOfTrack, shownTrack } from '../privacy.ts';
import { ActivityTypeEnum, DistanceUnitsEnum, FeltEnum } from './enums.ts';

const SHOWN_PART =
  "To anyone but the athlete, when their privacy zones or hidden track ends cut the workout's track: the shown part's, as `track` gives it.";

export interface Distance {
  value: number;
  units: DistanceUnits;
}

export const DistanceRef = builder.objectRef<Distance>('Distance').implement({
  description: 'A distance in the units it was entered in.',
  fields: (t) => ({
    value: t.exposeFloat('value', { description: 'How far, in `units`.' }),
    units: t.expose('units', { type: DistanceUnitsEnum, description: 'The units of `value`.' }),
  }),
});

/**
 * What anyone but the author is told of a workout whose track the author's privacy cuts (zones, hidden
 * ends): the figures of the part shown, as its track's own fields give them, or nothing when no part of
 * it is shown. The whole file's figures beside the shown part's told how much was cut (210 s and 1.2 km
 * apart), and its pace projected back to 8 m of a zone's centre. Null: the stored figures stand (the
 * author, a workout without a track, or nothing hidden).
 */
async function shownFigures(
  context: Context,
  workout: { entryId: number },
): Promise<{ meters: number; seconds: number | null; endedAt: Date | null } | null> {
  // from its entry (Entry.workout), the author and, from a page, their settings: most hide nothing,
  // and then no track is read
  const { authorId, authorPrivacy } = workout as { authorId?: number; authorPrivacy?: PrivacySettings };
  // (entryPrivacy answers no settings for the owner: then nothing is hidden)
  if (authorId !== undefined && !hidesAnything(await entryPrivacy(context, { authorId, authorPrivacy }))) return null;
  const track = await trackOfEntry(context, workout.entryId);
  if (!track) return null;
  const ownerId = authorId ?? (await ownerOfTrack(context, { id: track.id }));
  if (readsAsOwner(context, ownerId)) return null;
  const shown = await shownTrack(context, { id: track.id, ownerId, ownerPrivacy: authorPrivacy, pointCount: track.pointCount });
  if (!shown) return null;
  const { distanceMeters, startedAt, endedAt } = shown.summary;
  const seconds = startedAt && endedAt ? Math.round((endedAt.getTime() - startedAt.getTime()) / 1000) : null;
  return { meters: distanceMeters, seconds, endedAt };
}

export const WorkoutRef = builder.prismaObject('Workout', {
  description: 'The workout part of an entry (SPEC 2.3).',
  fields: (t) => ({
    activityType: t.field({
      type: ActivityTypeEnum,
      description: 'The kind of workout.',
      resolve: (w) => storedValue(ACTIVITY_TYPES, w.activityType, 'Workout.activityType'),
    }),
    completedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: `When it ended, if the athlete said. ${SHOWN_PART}`,
      resolve: async (w, _args, context) => {
        const shown = await shownFigures(context, w);
        return shown ? shown.endedAt : w.completedAt;
      },
    }),
    distance: t.field({
      type: DistanceRef,
      nullable: true,
      description: `How far, in the units it was given in; null when not given. ${SHOWN_PART}`,
      resolve: async (w, _args, context) => {
        if (w.distanceValue === null || w.distanceUnits === null) return null;
        const units = storedValue(DISTANCE_UNITS, w.distanceUnits, 'Workout.distanceUnits');
        const shown = await shownFigures(context, w);
        return { value: shown ? Math.round(fromMeters(shown.meters, units) * 100) / 100 : w.distanceValue, units };
      },
    }),
    duration: t.int({
      nullable: true,
      description: `Seconds spent working out. ${SHOWN_PART}`,
      resolve: async (w, _args, context) => {
        const shown = await shownFigures(context, w);
        return shown ? shown.seconds : w.duration;
      },
    }),
    felt: t.field({
      type: FeltEnum,
      nullable: true,
      description: 'How it felt; null when not said.',
      resolve: (w) => (w.felt === null ? null : storedValue(FEELINGS, w.felt, 'Workout.felt')),
    }),
    calories: t.exposeInt('calories', { nullable: true, description: 'Kilocalories burnt, if said.' }),
    title: t.exposeString('title', { nullable: true, description: 'Its title, if any.' }),
    routeId: t.globalID({
      nullable: true,
      description: 'The global id of the route it followed (as `route { id }`); null for none.',
      resolve: (w) => (w.routeId === null ? null : { type: 'Route', id: w.routeId }),
    }),
    route: t.relation('route', { nullable: true, description: 'The route it followed; null for none.' }),
  }),
});
