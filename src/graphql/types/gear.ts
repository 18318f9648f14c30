// An athlete's gear: their shoes, bikes and the rest, the workouts done in each and its totals. Its owner
// sees all of it; anyone else sees a piece of gear once they may see a workout done in it, and its totals
// over the workouts they may see, as they are told each one's figures (db/stats.ts).
import { readGearOf, readSeenGear } from '../../db/gear.ts';
import { readGearTotals } from '../../db/stats.ts';
import { storedValue, UNIT_PREFERENCES } from '../../domain/activity.ts';
import { defaultsOf, GEAR_KINDS, MAX_GEAR, readDefaultGear } from '../../domain/gear.ts';
import { fromMeters } from '../../domain/units.ts';
import { builder } from '../builder.ts';
import { type Context, readerOf } from '../context.ts';
import { databaseIdOf, mayReachGear, namesObject } from '../global-ids.ts';
import { gearById, perContext, personById } from '../loaders.ts';
import { entryStream } from '../streams.ts';
import { EntryConnection, EntryRef } from './entry.ts';
import { ActivityTypeEnum, GearKindEnum } from './enums.ts';
import { figuresReader } from './stats.ts';
import { streamArgs } from './stream-args.ts';
import { type Distance, DistanceRef } from './workout.ts';

/** Whether the viewer is the gear's owner: they see all of it, defaults and unused gear included. */
export const ownsGear = (context: Context, ownerId: number) => context.viewer?.id === ownerId;

interface GearTotals {
  workouts: number;
  distance: Distance;
  movingSeconds: number;
  firstUsedAt: Date | null;
  lastUsedAt: Date | null;
}

const GearTotalsRef = builder.objectRef<GearTotals>('GearTotals').implement({
  description:
    'What was done in a piece of gear: over the workouts done in it that the viewer may see, with the figures the viewer is told of each.',
  fields: (t) => ({
    workouts: t.exposeInt('workouts', { description: 'How many workouts.' }),
    distance: t.field({ type: DistanceRef, description: "How far, in its owner's units.", resolve: (totals) => totals.distance }),
    movingSeconds: t.exposeInt('movingSeconds', { description: 'Seconds spent moving (a workout without a track: its duration).' }),
    firstUsedAt: t.expose('firstUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the first of them was done; null for none.',
    }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the latest of them was done; null for none.',
    }),
  }),
});

type GearKey = { id: number; ownerId: number };

/** A person's units, as their gear's totals answer distances in. */
const unitsOf = async (context: Context, personId: number) =>
  storedValue(UNIT_PREFERENCES, (await personById(context, personId)).units, 'Person.units');

/** A gear's totals, summed with those of every other gear of its owner the operation asks for: one statement an owner. */
const gearTotals = perContext<GearKey, GearTotals>(async (context, keys) => {
  const found = new Map<number, GearTotals>();
  for (const ownerId of new Set(keys.map((key) => key.ownerId))) {
    const units = await unitsOf(context, ownerId);
    const ids = keys.filter((key) => key.ownerId === ownerId).map((key) => key.id);
    for (const row of await readGearTotals(context, ownerId, await figuresReader(context, ownerId), ids))
      found.set(row.gearId, {
        workouts: row.workouts,
        distance: { value: Math.round(fromMeters(row.meters, units) * 100) / 100, units },
        movingSeconds: row.movingSeconds,
        firstUsedAt: row.firstAt,
        lastUsedAt: row.lastAt,
      });
  }
  // gear without a workout the reader may see
  const none = async (ownerId: number): Promise<GearTotals> => ({
    workouts: 0,
    distance: { value: 0, units: await unitsOf(context, ownerId) },
    movingSeconds: 0,
    firstUsedAt: null,
    lastUsedAt: null,
  });
  return Promise.all(keys.map(async (key) => found.get(key.id) ?? none(key.ownerId)));
});

export const GearRef = builder.prismaNode('Gear', {
  id: { field: 'id', description: 'Its global id: opaque, stable, and naming its type (Relay object identification).' },
  description:
    "An athlete's shoes, bike or other gear. Seen by its owner, and by whoever may see a workout done in it; chosen when posting or importing a workout, or by default for its activity type.",
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'Its number in the database, as the REST fields name it (`gear_id`).' }),
    name: t.exposeString('name', { description: 'What its owner calls it.' }),
    brand: t.exposeString('brand', { nullable: true, description: 'Who made it, if said.' }),
    model: t.exposeString('model', { nullable: true, description: 'Its model, if said.' }),
    kind: t.field({
      type: GearKindEnum,
      description: 'What it is.',
      resolve: (gear) => storedValue(GEAR_KINDS, gear.kind, 'Gear.kind'),
    }),
    retired: t.exposeBoolean('retired', { description: 'No longer in use: kept with its workouts, never chosen by default.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was added.' }),
    defaultFor: t.field({
      type: [ActivityTypeEnum],
      nullable: true,
      description:
        'The activity types whose workouts are done in it when they name no gear (each type has one such gear at most). Null to anyone but its owner.',
      resolve: async (gear, _args, context) => {
        if (!ownsGear(context, gear.ownerId)) return null;
        return defaultsOf(readDefaultGear((await personById(context, gear.ownerId)).defaultGear), gear.id);
      },
    }),
    totals: t.field({
      type: GearTotalsRef,
      description: 'Its workouts, distance and moving time: over the workouts done in it that the viewer may see.',
      resolve: (gear, _args, context) => gearTotals(context, gear),
    }),
    workouts: t.connection(
      {
        type: EntryRef,
        description: 'The workouts done in it that the viewer may see, newest first.',
        args: streamArgs,
        resolve: (gear, args, context, info) => entryStream(context, info, { kind: 'gear', gearId: gear.id }, args),
      },
      EntryConnection,
    ),
  }),
});

builder.prismaObjectFields('Person', (t) => ({
  gear: t.field({
    type: [GearRef],
    description: `Their gear, the gear in use first, then in the order it was added (at most ${MAX_GEAR}). To anyone but them, only the gear of workouts the viewer may see.`,
    args: { retired: t.arg.boolean({ description: 'Whether retired gear is listed too; default true.' }) },
    select: { gearCount: true },
    resolve: async (person, args, context) => {
      // most people keep none: then nothing is read
      if (person.gearCount === 0) return [];
      const rows = await readGearOf(context, person.id, { retired: args.retired !== false, limit: MAX_GEAR });
      if (ownsGear(context, person.id)) return rows;
      const seen = await readSeenGear(
        context,
        readerOf(context),
        rows.map((row) => row.id),
      );
      return rows.filter((row) => seen.has(row.id));
    },
  }),
}));

builder.prismaObjectFields('Workout', (t) => ({
  gearId: t.globalID({
    nullable: true,
    description: 'The global id of the gear it was done in (as `gear { id }`); null for none.',
    resolve: (w) => (w.gearId === null ? null : { type: 'Gear', id: w.gearId }),
  }),
  gear: t.field({
    type: GearRef,
    nullable: true,
    description: 'The shoes, bike or other gear it was done in; null for none.',
    resolve: (w, _args, context) => (w.gearId === null ? null : gearById(context, w.gearId)),
  }),
}));

builder.queryFields((t) => ({
  gear: t.field({
    type: GearRef,
    nullable: true,
    description: 'A piece of gear by id: the viewer’s own, or one used in a workout the viewer may see; null otherwise.',
    args: { id: t.arg.id({ required: true, description: namesObject('Gear') }) },
    resolve: async (_root, args, context) => {
      const id = databaseIdOf(args.id, 'Gear');
      const gear = id === null ? null : await gearById(context, id);
      return gear && (await mayReachGear(context, gear)) ? gear : null;
    },
  }),
}));
