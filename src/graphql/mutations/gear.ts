// Adding, changing and removing an athlete's gear, with the defaults that choose it for a workout of an
// activity type that names none (Person.defaultGear: each type one gear at most, never retired gear).
import { changeDefaults, type Transaction } from '../../db/gear.ts';
import type { ActivityType } from '../../domain/activity.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { MAX_GEAR, validateGearChanges, validateNewGear, withDefaults, withoutGear } from '../../domain/gear.ts';
import { type Context, requireViewer } from '../context.ts';
import { namesObject, requireOwnRow } from '../global-ids.ts';
import { ActivityTypeEnum, GearKindEnum } from '../types/enums.ts';
import { ofResult, type PayloadFieldBuilder, payloadMutation, readAfter } from './payload.ts';

/** The entries of the workouts done in the gear show it: their kept pages end (their revision moves, db/entry-documents.ts). */
function renewWorkoutPages(tx: Transaction, gearId: number) {
  return tx.$executeRaw`UPDATE "Entry" SET "revision" = "revision" + 1 WHERE "id" IN (SELECT "entryId" FROM "Workout" WHERE "gearId" = ${gearId})`;
}

/** A payload's gear, read after the write with what the operation asks of it. */
function gearField<Result extends { gearId: number }>(t: PayloadFieldBuilder<Result>, description: string) {
  return t.prismaField({
    type: 'Gear',
    nullable: true,
    description: `${description} Null when the mutation failed.`,
    resolve: (query, payload, _args, context) =>
      readAfter(payload, query, (result, selection) => context.prisma.gear.findUnique({ ...selection, where: { id: result.gearId } })),
  });
}

/** One of the viewer's gear by the id the client sent: missing is NotFound, another's NotAuthorized. */
const ownGear = (context: Context, id: string | number, action: string) =>
  requireOwnRow(context, id, 'Gear', 'gear', action, (row) =>
    context.prisma.gear.findUnique({ where: { id: row }, select: { ownerId: true } }),
  );

const DEFAULT_FOR =
  'The activity types whose workouts are done in it when they name no gear: each moves here from any other gear it was the default of. Not for retired gear.';

payloadMutation('createGear', {
  description: `Adds a piece of gear (shoes, a bike…) to the viewer's, at most ${MAX_GEAR}.`,
  input: {
    description: 'The new gear.',
    fields: (t) => ({
      name: t.string({ required: true, description: 'What you call it, at most 100 characters.' }),
      brand: t.string({ description: 'Who made it, at most 100 characters.' }),
      model: t.string({ description: 'Its model, at most 100 characters.' }),
      kind: t.field({ type: GearKindEnum, required: true, description: 'What it is.' }),
      defaultFor: t.field({ type: [ActivityTypeEnum], description: DEFAULT_FOR }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const valid = validateNewGear(input);
    const gearId = await context.prisma.$transaction(async (tx) => {
      // the person's row first: two additions at once cannot both pass the bound
      await tx.$executeRaw`UPDATE "Person" SET "gearCount" = "gearCount" WHERE "id" = ${viewer.id}`;
      if ((await tx.gear.count({ where: { ownerId: viewer.id } })) >= MAX_GEAR)
        throw ValidationError.field('name', `you may keep at most ${MAX_GEAR} pieces of gear: delete one first`);
      const { id } = await tx.gear.create({ data: { ...valid, ownerId: viewer.id }, select: { id: true } });
      if (input.defaultFor?.length) await changeDefaults(tx, viewer.id, (defaults) => withDefaults(defaults, id, input.defaultFor!));
      return id;
    });
    return { gearId };
  },
  payload: { description: 'The new gear.', fields: (t) => ({ gear: gearField(t, 'The new gear.') }) },
});

payloadMutation('updateGear', {
  description:
    "Changes one of the viewer's gear: its name, brand, model or kind, whether it is retired, the activities it is the default of.",
  input: {
    description: 'The gear, and what changes of it; a field left out stays as it is.',
    fields: (t) => ({
      id: t.id({ required: true, description: namesObject('Gear') }),
      name: t.string({ description: 'At most 100 characters; it cannot be cleared.' }),
      brand: t.string({ description: 'At most 100 characters; null or empty clears it.' }),
      model: t.string({ description: 'At most 100 characters; null or empty clears it.' }),
      kind: t.field({ type: GearKindEnum, description: 'What it is.' }),
      retired: t.boolean({ description: 'Retired gear stays with its workouts and stops being the default of any activity.' }),
      defaultFor: t.field({ type: [ActivityTypeEnum], description: `${DEFAULT_FOR} An empty list: the default of none.` }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const gearId = await ownGear(context, input.id, 'change');
    const ownerId = requireViewer(context).id;
    const changes = validateGearChanges(input);
    const types: readonly ActivityType[] | null = input.defaultFor ?? null;
    await context.prisma.$transaction(async (tx) => {
      const { retired } = await tx.gear.update({ where: { id: gearId }, data: changes, select: { retired: true } });
      if (retired && types?.length) throw ValidationError.field('defaultFor', 'retired gear is the default of no activity');
      if (retired || types !== null)
        await changeDefaults(tx, ownerId, (defaults) =>
          retired ? withoutGear(defaults, [gearId]) : withDefaults(defaults, gearId, types),
        );
      // its workouts' entries show its name: their pages are kept until their revision moves (db/entry-documents.ts)
      if (changes.name !== undefined || changes.brand !== undefined || changes.model !== undefined) await renewWorkoutPages(tx, gearId);
    });
    return { gearId };
  },
  payload: { description: 'The gear as it is now.', fields: (t) => ({ gear: gearField(t, 'The gear as it is now.') }) },
});

payloadMutation('deleteGear', {
  description: "Deletes one of the viewer's gear; workouts done in it keep their figures and lose the link.",
  input: { description: 'The gear to delete.', fields: (t) => ({ id: t.id({ required: true, description: namesObject('Gear') }) }) },
  scope: 'entries:write',
  errors: [NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const gearId = await ownGear(context, input.id, 'delete');
    const ownerId = requireViewer(context).id;
    await context.prisma.$transaction(async (tx) => {
      await changeDefaults(tx, ownerId, (defaults) => withoutGear(defaults, [gearId]));
      await renewWorkoutPages(tx, gearId);
      const { count } = await tx.gear.deleteMany({ where: { id: gearId, ownerId } });
      if (count === 0) throw new NotFoundError('gear', String(input.id));
    });
    return { gearId };
  },
  payload: {
    description: 'The deleted gear’s id.',
    fields: (t) => ({
      deletedGearId: t.globalID({
        nullable: true,
        description: 'The deleted gear’s global id, for Relay’s `@deleteRecord`. Null when the mutation failed.',
        resolve: ofResult((result: { gearId: number }) => ({ type: 'Gear', id: result.gearId })),
      }),
    }),
  },
});
