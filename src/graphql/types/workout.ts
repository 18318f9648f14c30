import { ACTIVITY_TYPES, DISTANCE_UNITS, FEELINGS, storedValue, type DistanceUnits } from '../../domain/activity.ts';
import { builder } from '../builder.ts';
import { ActivityTypeEnum, DistanceUnitsEnum, FeltEnum } from './enums.ts';

export interface Distance {
  value: number;
  units: DistanceUnits;
}

export const DistanceRef = builder.objectRef<Distance>('Distance').implement({
  description: 'A distance in the units it was entered in.',
  fields: (t) => ({
    value: t.exposeFloat('value'),
    units: t.expose('units', { type: DistanceUnitsEnum }),
  }),
});

export const WorkoutRef = builder.prismaObject('Workout', {
  description: 'The workout part of an entry (SPEC 2.3).',
  fields: (t) => ({
    activityType: t.field({
      type: ActivityTypeEnum,
      resolve: (w) => storedValue(ACTIVITY_TYPES, w.activityType, 'Workout.activityType'),
    }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    distance: t.field({
      type: DistanceRef,
      nullable: true,
      resolve: (w) =>
        w.distanceValue !== null && w.distanceUnits !== null
          ? { value: w.distanceValue, units: storedValue(DISTANCE_UNITS, w.distanceUnits, 'Workout.distanceUnits') }
          : null,
    }),
    duration: t.exposeInt('duration', { nullable: true, description: 'Seconds spent working out.' }),
    felt: t.field({
      type: FeltEnum,
      nullable: true,
      resolve: (w) => (w.felt === null ? null : storedValue(FEELINGS, w.felt, 'Workout.felt')),
    }),
    calories: t.exposeInt('calories', { nullable: true }),
    title: t.exposeString('title', { nullable: true }),
    routeId: t.exposeInt('routeId', { nullable: true }),
    route: t.relation('route', { nullable: true }),
  }),
});
