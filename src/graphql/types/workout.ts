import { ACTIVITY_TYPES, DISTANCE_UNITS, type DistanceUnits, FEELINGS, storedValue } from '../../domain/activity.ts';
import { builder } from '../builder.ts';
import { ActivityTypeEnum, DistanceUnitsEnum, FeltEnum } from './enums.ts';

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

export const WorkoutRef = builder.prismaObject('Workout', {
  description: 'The workout part of an entry (SPEC 2.3).',
  fields: (t) => ({
    activityType: t.field({
      type: ActivityTypeEnum,
      description: 'The kind of workout.',
      resolve: (w) => storedValue(ACTIVITY_TYPES, w.activityType, 'Workout.activityType'),
    }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it ended, if the athlete said.' }),
    distance: t.field({
      type: DistanceRef,
      nullable: true,
      description: 'How far, in the units it was given in; null when not given.',
      resolve: (w) =>
        w.distanceValue !== null && w.distanceUnits !== null
          ? { value: w.distanceValue, units: storedValue(DISTANCE_UNITS, w.distanceUnits, 'Workout.distanceUnits') }
          : null,
    }),
    duration: t.exposeInt('duration', { nullable: true, description: 'Seconds spent working out.' }),
    felt: t.field({
      type: FeltEnum,
      nullable: true,
      description: 'How it felt; null when not said.',
      resolve: (w) => (w.felt === null ? null : storedValue(FEELINGS, w.felt, 'Workout.felt')),
    }),
    calories: t.exposeInt('calories', { nullable: true, description: 'Kilocalories burnt, if said.' }),
    title: t.exposeString('title', { nullable: true, description: 'Its title, if any.' }),
    routeId: t.exposeInt('routeId', { nullable: true, description: 'The `databaseId` of the route it followed; null for none.' }),
    route: t.relation('route', { nullable: true, description: 'The route it followed; null for none.' }),
  }),
});
