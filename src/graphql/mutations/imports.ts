// importActivity: a FIT, TCX or GPX file becomes a workout entry with its track.
import { createImportedEntry, importedEntry } from '../../db/imports.ts';
import { NotAuthorizedError, TryAgainLaterError, ValidationError } from '../../domain/errors.ts';
import { openActivityFile, parseActivityFile } from '../../imports/activity-files.ts';
import { ImportBusyError } from '../../imports/fit-pool.ts';
import type { GpxSource } from '../builder.ts';
import { requireViewer } from '../context.ts';
import { namesObject } from '../global-ids.ts';
import { VisibilityEnum } from '../types/enums.ts';
import { entryEdgeField, entryField, workoutGear } from './entries.ts';
import { ofResult, payloadMutation } from './payload.ts';

/** People with an import being read right now, in this process: one file at a time each. */
const importing = new Set<number>();

async function bytesOf(file: GpxSource): Promise<Uint8Array> {
  return typeof file === 'string' ? Buffer.from(file) : new Uint8Array(await file.arrayBuffer());
}

payloadMutation('importActivity', {
  description:
    'Makes a workout entry from an activity file (FIT, TCX or GPX, gzipped or not): its type from the sport the file names, ' +
    'the start as `completedAt`, distance, moving time, calories when the file has them, and the track with heart rate, ' +
    'cadence, power and elevation. The entry, its workout and its track are made together or not at all. The same file ' +
    'imported again answers the first entry (`created: false`). One file at a time per person.',
  input: {
    description: 'The activity file, and what to add to it.',
    fields: (t) => ({
      file: t.field({ type: 'ActivityFile', required: true, description: 'The FIT, TCX or GPX file, as a file of a multipart request.' }),
      message: t.string({ description: 'The note of the entry; default: the notes the file holds (TCX `<Notes>`).' }),
      visibility: t.field({ type: VisibilityEnum, description: "Who sees the entry; default: the viewer's `defaultVisibility`." }),
      gearId: t.id({
        description: `One of your gear: ${namesObject('Gear')} Left out: the gear you chose for the file's activity (\`Gear.defaultFor\`); null: none.`,
      }),
    }),
  },
  scope: 'entries:write',
  errors: [ValidationError, NotAuthorizedError, TryAgainLaterError],
  resolve: async ({ file, message, visibility, gearId }, context): Promise<{ entryId: number; created: boolean }> => {
    const viewer = requireViewer(context);
    if (message != null && message.length > 5000) throw ValidationError.field('message', 'is longer than 5000 characters');
    if (importing.has(viewer.id))
      throw new TryAgainLaterError('another activity file of yours is being imported; retry when it is done', 5);
    importing.add(viewer.id);
    try {
      const { plain, hash } = await openActivityFile(await bytesOf(file));
      // the same file again is answered by its hash, without reading it twice
      const known = await importedEntry(context.prisma, viewer.id, hash);
      if (known) return known;
      const activity = await parseActivityFile(plain);
      const gear = gearId === undefined ? undefined : await workoutGear(context, gearId, null, null);
      const outcome = await createImportedEntry(context.prisma, context.provider, activity, {
        authorId: viewer.id,
        hash,
        message,
        visibility,
        announce: true,
        gearId: gear,
      });
      if (outcome.created)
        context.events.publish('entryCreated', {
          entryId: outcome.entryId,
          authorId: viewer.id,
          lat: null,
          lon: null,
          visibility: outcome.visibility,
        });
      return outcome;
    } catch (error) {
      if (error instanceof ImportBusyError) throw new TryAgainLaterError(error.message, 10);
      throw error;
    } finally {
      importing.delete(viewer.id);
    }
  },
  payload: {
    description: 'The entry an imported activity file became.',
    fields: (t) => ({
      created: t.boolean({
        nullable: true,
        description:
          'False when the viewer had already imported this very file: `entry` is that earlier import, and nothing new was made. Null when the mutation failed.',
        resolve: ofResult((result) => result.created),
      }),
      entry: entryField(t, (result) => result.entryId, 'The entry made from the file, or the one an earlier import of the same file made.'),
      entryEdge: entryEdgeField(t, (result) => (result.created ? result.entryId : null)),
    }),
  },
});
