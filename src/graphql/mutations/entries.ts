import { refusingGoneReference } from '../../db/errors.ts';
import { fillWorkoutFromTrack } from '../../db/imports.ts';
import { insertEntryAtOnce } from '../../db/new-entries.ts';
import { notifyEntryMentions } from '../../db/notifications.ts';
import { recordEvent, withOutboxEvent } from '../../db/outbox.ts';
import { replaceTrack } from '../../db/tracks.ts';
import { ACTIVITY_TYPES, type ActivityType, DISTANCE_UNITS, storedValue, UNIT_PREFERENCES } from '../../domain/activity.ts';
import {
  validateCreateEntry,
  validateEntryEdit,
  validateWorkoutEdit,
  type WorkoutChanges,
  type WorkoutEdit,
} from '../../domain/entry-input.ts';
import { NotAuthorizedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { readDefaultGear } from '../../domain/gear.ts';
import { parsePackedGpx } from '../../domain/gpx.ts';
import { mentionedUsernames } from '../../domain/notifications.ts';
import { encodeCursor } from '../../domain/paging.ts';
import { processImage } from '../../media/images.ts';
import { prepareUpload } from '../../tracks/pool.ts';
import { builder } from '../builder.ts';
import { announce, type Context, requireViewer, type Viewer } from '../context.ts';
import { databaseIdOf, namesObject, requireDatabaseId } from '../global-ids.ts';
import { recordsTransactions } from '../idempotency.ts';
import { viewerMaySee } from '../lookups.ts';
import { EntryEdge } from '../types/entry.ts';
import { ActivityTypeEnum, DistanceUnitsEnum, FeltEnum, MediaTypeEnum, VisibilityEnum } from '../types/enums.ts';
import { gpxStream } from './gpx-source.ts';
import { ofResult, type PayloadFieldBuilder, type PayloadTypes, payloadMutation, readAfter } from './payload.ts';

const DistanceInput = builder.inputType('DistanceInput', {
  description: 'A distance: a value in some units.',
  fields: (t) => ({
    value: t.float({ required: true, description: 'At least 0.' }),
    units: t.field({ type: DistanceUnitsEnum, description: "Default: the person's preferred units; for swims yards or meters." }),
  }),
});

const WorkoutInput = builder.inputType('WorkoutInput', {
  description: 'A workout (SPEC 2.3).',
  fields: (t) => ({
    activityType: t.field({ type: ActivityTypeEnum, required: true, description: 'The kind of workout.' }),
    completedAt: t.field({ type: 'DateTime', description: 'ISO 8601 in UTC.' }),
    distance: t.field({ type: DistanceInput, description: 'How far.' }),
    duration: t.int({ description: 'Seconds spent working out, 0 or more.' }),
    felt: t.field({ type: FeltEnum, description: 'How it felt.' }),
    calories: t.int({ description: '0 or more.' }),
    title: t.string({ description: 'At most 200 characters.' }),
    routeId: t.id({ description: `One of your routes: ${namesObject('Route')}` }),
    gearId: t.id({
      description: `One of your gear (\`Person.gear\`): ${namesObject('Gear')} Left out: the gear you chose for its activity (\`Gear.defaultFor\`); null: none.`,
    }),
  }),
});

const WorkoutEditInput = builder.inputType('WorkoutEditInput', {
  description:
    'Corrections to a workout after it was posted: each field given replaces the stored one, `null` clears it; a field left out stays.',
  fields: (t) => ({
    activityType: t.field({ type: ActivityTypeEnum, description: 'The kind of workout (it cannot be cleared).' }),
    completedAt: t.field({ type: 'DateTime', description: 'When it ended, ISO 8601 in UTC.' }),
    distance: t.field({ type: DistanceInput, description: 'How far; without `units`, the units stored before.' }),
    duration: t.int({ description: 'Seconds spent working out, 0 or more.' }),
    felt: t.field({ type: FeltEnum, description: 'How it felt.' }),
    calories: t.int({ description: '0 or more.' }),
    routeId: t.id({ description: `One of your routes: ${namesObject('Route')}` }),
    gearId: t.id({ description: `One of your gear: ${namesObject('Gear')} Null: none.` }),
  }),
});

const MediaInput = builder.inputType('MediaInput', {
  description: 'An image to attach: a URL, or the file itself.',
  fields: (t) => ({
    type: t.field({ type: MediaTypeEnum, required: true, description: 'What it is: `IMAGE`.' }),
    url: t.string({ description: 'An http(s) URL of the photo; or upload it as `data`.' }),
    previewUrl: t.string({ description: 'An http(s) URL of a smaller version (made by the server for an upload).' }),
    data: t.field({
      type: 'ImageFile',
      description:
        'The photo itself, instead of `url`: stored and served by Milepost with a preview, upright and without EXIF data (no GPS position).',
    }),
  }),
});

// No `id` of its own: the Entry's global id under another type made Relay's store hold one record
// under two types (and keep the entry's fields); it is `entryId`, to delete by.
export const DeletedEntry = builder.objectRef<{ id: number }>('DeletedEntry').implement({
  description:
    'What remains of a deleted entry: its ids, so that a client can drop it from what it keeps (Relay: `entryId @deleteRecord`). It has no `id`: it is no object of its own.',
  fields: (t) => ({
    entryId: t.globalID({
      description: 'The deleted entry’s global id, for Relay’s `@deleteRecord`.',
      resolve: (entry) => ({ type: 'Entry', id: entry.id }),
    }),
    databaseId: t.exposeInt('id', { description: 'The deleted entry’s number in the database.' }),
  }),
});

/** A payload's entry (the one its mutation changed), read after the write with what the operation asks of it. */
export function entryField<Result>(t: PayloadFieldBuilder<Result>, entryIdOf: (result: Result) => number, description: string) {
  return t.prismaField({
    type: 'Entry',
    nullable: true,
    description: `${description} Null when the mutation failed.`,
    resolve: (query, payload, _args, context) =>
      readAfter(payload, query, (result, selection) => context.prisma.entry.findUnique({ ...selection, where: { id: entryIdOf(result) } })),
  });
}

/** A new entry's edge, with the cursor the time-ordered streams give it: for Relay's `@prependEdge`. */
export function entryEdgeField<Result>(t: PayloadFieldBuilder<Result>, entryIdOf: (result: Result) => number | null) {
  return t.field({
    type: EntryEdge,
    nullable: true,
    description:
      'The new entry as an edge of the streams it joins (newest first): for Relay’s `@prependEdge`. Null when no entry was made.',
    resolve: async (payload, _args, context) => {
      const id = payload.result === null ? null : entryIdOf(payload.result);
      if (id === null) return null;
      const node = await context.prisma.entry.findUnique({ where: { id } });
      return node && { cursor: encodeCursor({ at: node.createdAt.getTime(), id }), node };
    },
  });
}

const workoutFields = (t: PothosSchemaTypes.InputFieldBuilder<PayloadTypes, 'InputObject'>) => ({
  message: t.string({ description: 'The note, or how the workout went. At most 5000 characters.' }),
  lat: t.float({ description: 'Latitude, -90 to 90; together with lon.' }),
  lon: t.float({ description: 'Longitude, -180 to 180; together with lat.' }),
  placeName: t.string({ description: 'A name for the place, e.g. "Oakland, CA".' }),
  workout: t.field({ type: WorkoutInput, description: 'Makes the entry a workout; leave it out for a note.' }),
  media: t.field({ type: MediaInput, description: 'An image to attach.' }),
  visibility: t.field({ type: VisibilityEnum, description: "Who sees the entry; default: the author's `defaultVisibility`." }),
});

payloadMutation('createEntry', {
  description: 'Posts an entry as the viewer.',
  input: { description: 'A note, a workout, an image and/or a location (SPEC 4.3). At least one of them.', fields: workoutFields },
  scope: 'entries:write',
  errors: [ValidationError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const person = await context.prisma.person.findUniqueOrThrow({
      where: { id: viewer.id },
      select: { units: true, defaultVisibility: true, defaultGear: true },
    });
    const routeId = input.workout?.routeId;
    const routeRow = routeId == null ? routeId : databaseIdOf(routeId, 'Route');
    if (routeRow === null && routeId != null) throw ValidationError.field('workout.routeId', 'is not one of your routes');
    const given = input.workout && { ...input.workout, routeId: routeRow, gearId: gearRowOf(input.workout.gearId) };
    const entry = validateCreateEntry({ ...input, workout: given }, storedValue(UNIT_PREFERENCES, person.units, 'Person.units'));
    if (entry.workout)
      entry.workout.gearId = await workoutGear(context, input.workout!.gearId, entry.workout.activityType, person.defaultGear);
    if (input.media?.data) {
      // checked by its bytes, then stored before the entry that shows it exists (a stored photo
      // whose entry failed to commit is an orphan file, never a broken link)
      const stored = await context.media.save(await processImage(input.media.data));
      entry.mediaUrl = stored.content;
      entry.mediaPreviewUrl = stored.preview;
    }
    if (entry.workout?.routeId != null) {
      const route = await context.prisma.route.findFirst({
        where: { id: entry.workout.routeId, ownerId: viewer.id },
        select: { id: true },
      });
      if (!route) throw ValidationError.field('workout.routeId', 'is not one of your routes');
    }
    const { workout, ...fields } = entry;
    const visibility = input.visibility ?? person.defaultVisibility;
    // one statement tree, one transaction: the entry never exists without its workout. What the
    // operation asks for is read after the commit, so the write holds the database only for its inserts.
    const created = { authorId: viewer.id, lat: entry.lat, lon: entry.lon, visibility };
    const mentioned = mentionedUsernames(fields.message);
    // PostgreSQL: one statement that commits on its own, unless a retry's key records the write or
    // mentions are written beside it (db/new-entries.ts)
    const { id, heard } =
      context.provider === 'postgresql' && mentioned.length === 0 && !recordsTransactions(context.prisma)
        ? {
            id: await insertEntryAtOnce(context.prisma, { ...fields, visibility, authorId: viewer.id, workout }).catch(
              refusingGoneReference('workout'),
            ),
            heard: [],
          }
        : await withOutboxEvent(
            context.prisma,
            async (tx) => {
              const row = await tx.entry
                .create({
                  data: { ...fields, visibility, authorId: viewer.id, ...(workout ? { workout: { create: workout } } : {}) },
                  select: { id: true },
                })
                .catch(refusingGoneReference('workout'));
              return {
                id: row.id,
                heard: await notifyEntryMentions(tx, { entryId: row.id, actorId: viewer.id }, mentioned),
              };
            },
            (row) => ({ name: 'entryCreated', payload: { entryId: row.id, ...created } }),
          );
    context.events.publish('entryCreated', { entryId: id, ...created });
    announce(context, heard);
    return { entryId: id };
  },
  payload: {
    description: 'The posted entry, and its edge for the streams it joins.',
    fields: (t) => ({
      entry: entryField(t, (result) => result.entryId, 'The posted entry.'),
      entryEdge: entryEdgeField(t, (result) => result.entryId),
    }),
  },
});

payloadMutation('updateEntry', {
  description: "Changes one of the viewer's entries: who sees it, its message, its workout's title, and corrections to its workout.",
  input: {
    description: 'The entry, and what may change of it after it was posted; a field left out stays as it is.',
    fields: (t) => ({
      id: t.id({ required: true, description: namesObject('Entry') }),
      visibility: t.field({ type: VisibilityEnum, description: 'Who sees the entry from now on.' }),
      message: t.string({
        description: 'The new message, at most 5000 characters; null or empty clears it (if the entry keeps a workout, image or place).',
      }),
      workoutTitle: t.string({
        description: "The workout's new title, at most 200 characters; null or empty clears it. Only for a workout.",
      }),
      workout: t.field({
        type: WorkoutEditInput,
        description:
          'Corrections to the workout: activity, distance, duration, calories, how it felt, when it ended, its route. Only for a workout.',
      }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const id = requireDatabaseId(input.id, 'Entry', 'entry');
    const entry = await context.prisma.entry.findUnique({
      where: { id },
      select: {
        authorId: true,
        visibility: true,
        mediaUrl: true,
        lat: true,
        hiddenAt: true,
        workout: { select: { entryId: true, activityType: true, distanceUnits: true } },
      },
    });
    if (!entry || !(await viewerMaySee(context, entry))) throw new NotFoundError('entry', String(input.id));
    if (entry.authorId !== viewer.id) throw new NotAuthorizedError('only the author may change this entry');
    if (entry.hiddenAt && input.visibility && input.visibility !== 'only_me')
      throw ValidationError.field('visibility', 'cannot change: a moderator hid this entry');
    const edit = validateEntryEdit(
      {
        ...(input.message !== undefined && { message: input.message }),
        ...(input.workoutTitle !== undefined && { workoutTitle: input.workoutTitle }),
      },
      { hasWorkout: entry.workout !== null, hasMedia: entry.mediaUrl !== null, hasPlace: entry.lat !== null },
    );
    const corrected = input.workout ? await workoutCorrections(context, viewer, input.workout, entry.workout) : {};
    const workout = { ...corrected, ...(edit.workoutTitle !== undefined && { title: edit.workoutTitle }) };
    if (edit.message !== undefined || Object.keys(workout).length > 0) {
      // the outbox carries the edit to the fediverse (federation/federation.ts), in the same transaction
      await withOutboxEvent(
        context.prisma,
        (tx) =>
          tx.entry.update({
            where: { id },
            data: {
              ...(edit.message !== undefined && { message: edit.message }),
              ...(Object.keys(workout).length > 0 && { workout: { update: workout } }),
            },
            select: { id: true },
          }),
        () => ({ name: 'entryEdited', payload: { entryId: id, authorId: viewer.id } }),
      ).catch(refusingGoneReference('workout'));
      context.events.publish('entryEdited', { entryId: id, authorId: viewer.id });
    }
    if (input.visibility && input.visibility !== entry.visibility) {
      const changed = { entryId: id, authorId: viewer.id, visibility: input.visibility, previous: entry.visibility };
      await withOutboxEvent(
        context.prisma,
        (tx) => tx.entry.update({ where: { id }, data: { visibility: input.visibility! }, select: { id: true } }),
        () => ({ name: 'entryVisibilityChanged', payload: changed }),
      );
      context.events.publish('entryVisibilityChanged', changed);
    }
    return { entryId: id };
  },
  payload: {
    description: 'The entry as it is now.',
    fields: (t) => ({ entry: entryField(t, (result) => result.entryId, 'The entry as it is now.') }),
  },
});

/** The row of the gear an input names; null for none named, undefined when left out. */
function gearRowOf(gearId: string | number | null | undefined): number | null | undefined {
  if (gearId == null) return gearId;
  const row = databaseIdOf(gearId, 'Gear');
  if (row === null) throw ValidationError.field('workout.gearId', 'is not one of your gear');
  return row;
}

/**
 * The gear a workout is done in: the one named, which must be the viewer's (retired or not); else, left
 * out on a new workout, the default for its activity (Person.defaultGear, kept by the gear mutations:
 * never a deleted or retired one); null when none.
 */
export async function workoutGear(
  context: Context,
  named: string | number | null | undefined,
  activityType: ActivityType | null,
  defaultGear: string | null,
): Promise<number | null> {
  const row = gearRowOf(named);
  if (row === undefined) return activityType === null ? null : (readDefaultGear(defaultGear)[activityType] ?? null);
  if (row === null) return null;
  const gear = await context.prisma.gear.findFirst({ where: { id: row, ownerId: requireViewer(context).id }, select: { id: true } });
  if (!gear) throw ValidationError.field('workout.gearId', 'is not one of your gear');
  return gear.id;
}

/** The workout columns a correction writes: checked by the domain's rules, the route one of the viewer's own. */
async function workoutCorrections(
  context: Context,
  viewer: Viewer,
  input: Omit<WorkoutEdit, 'routeId' | 'gearId'> & { routeId?: string | number | null; gearId?: string | number | null },
  stored: { activityType: string; distanceUnits: string | null } | null,
): Promise<WorkoutChanges> {
  if (!stored) throw ValidationError.field('workout', 'can only be given for a workout');
  let routeId: number | null | undefined = input.routeId === undefined || input.routeId === null ? input.routeId : null;
  const gearId = input.gearId == null ? input.gearId : await workoutGear(context, input.gearId, null, null);
  if (input.routeId != null) {
    const row = databaseIdOf(input.routeId, 'Route');
    const route =
      row === null ? null : await context.prisma.route.findFirst({ where: { id: row, ownerId: viewer.id }, select: { id: true } });
    if (!route) throw ValidationError.field('workout.routeId', 'is not one of your routes');
    routeId = route.id;
  }
  const person = await context.prisma.person.findUniqueOrThrow({ where: { id: viewer.id }, select: { units: true } });
  return validateWorkoutEdit(
    { ...input, routeId, gearId },
    {
      activityType: storedValue(ACTIVITY_TYPES, stored.activityType, 'Workout.activityType'),
      distanceUnits: stored.distanceUnits === null ? null : storedValue(DISTANCE_UNITS, stored.distanceUnits, 'Workout.distanceUnits'),
    },
    storedValue(UNIT_PREFERENCES, person.units, 'Person.units'),
  );
}

payloadMutation('deleteEntry', {
  description: "Deletes one of the viewer's entries with its comments, likes and track.",
  input: { description: 'The entry to delete.', fields: (t) => ({ id: t.id({ required: true, description: namesObject('Entry') }) }) },
  scope: 'entries:write',
  errors: [NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const id = requireDatabaseId(input.id, 'Entry', 'entry');
    const entry = await context.prisma.entry.findUnique({ where: { id }, select: { authorId: true, visibility: true } });
    // an entry the viewer may not see is missing, never forbidden: a 403 would say it exists
    if (!entry || !(await viewerMaySee(context, entry))) throw new NotFoundError('entry', String(input.id));
    if (entry.authorId !== viewer.id) throw new NotAuthorizedError('only the author may delete this entry');
    const deleted = await context.prisma.$transaction(async (tx) => {
      const { count } = await tx.entry.deleteMany({ where: { id, authorId: viewer.id } });
      if (count === 1) await recordEvent(tx, 'entryDeleted', { entryId: id, authorId: viewer.id, visibility: entry.visibility });
      return count === 1;
    });
    if (!deleted) throw new NotFoundError('entry', String(input.id));
    context.events.publish('entryDeleted', { entryId: id, authorId: viewer.id, visibility: entry.visibility });
    return { id };
  },
  payload: {
    description: 'What remains of the deleted entry: its ids.',
    fields: (t) => ({
      deletedEntry: t.field({
        type: DeletedEntry,
        nullable: true,
        description: 'The deleted entry’s ids. Null when the mutation failed.',
        resolve: ofResult((result) => result),
      }),
      deletedEntryId: t.globalID({
        nullable: true,
        description: 'The deleted entry’s global id, for Relay’s `@deleteRecord`. Null when the mutation failed.',
        resolve: ofResult((result) => ({ type: 'Entry', id: result.id })),
      }),
    }),
  },
});

payloadMutation('setEntryTrack', {
  description:
    "Creates or replaces the GPS track of one of the viewer's workouts from a GPX document. What the workout leaves blank " +
    'is taken from the track: its distance (in the athlete’s units) and moving time as `duration`; a figure the athlete ' +
    'gave is never overwritten.',
  input: {
    description: 'The workout, and its track.',
    fields: (t) => ({
      entryId: t.id({ required: true, description: namesObject('Entry') }),
      gpx: t.field({ type: 'GpxDocument', required: true, description: 'The GPX document: its text, or a file of a multipart request.' }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotFoundError, NotAuthorizedError],
  resolve: async (input, context) => {
    const viewer = requireViewer(context);
    const entryId = requireDatabaseId(input.entryId, 'Entry', 'entry');
    const entry = await context.prisma.entry.findUnique({
      where: { id: entryId },
      select: { authorId: true, kind: true, visibility: true },
    });
    if (!entry || !(await viewerMaySee(context, entry))) throw new NotFoundError('entry', String(input.entryId));
    if (entry.authorId !== viewer.id) throw new NotAuthorizedError("only the author may change this entry's track");
    if (entry.kind !== 'workout') throw ValidationError.field('entryId', 'is a note; GPS tracks belong to workouts');
    const track = await prepareUpload(await parsePackedGpx(gpxStream(input.gpx)));
    await replaceTrack(context.prisma, context.provider, { entryId }, track, (tx) => fillWorkoutFromTrack(tx, entryId, track.data));
    context.events.publish('entryEdited', { entryId, authorId: viewer.id });
    return { entryId };
  },
  payload: {
    description: 'The workout with its new track.',
    fields: (t) => ({ entry: entryField(t, (result) => result.entryId, 'The workout with its new track.') }),
  },
});
