// Posting from the home page's compose form: a note or a workout, with a track file or a photo. Without
// a photo, a track file is imported whole (its activity, distance, time and date: importActivity); with
// one, the workout is as the form describes it, the photo is attached, and a GPX file becomes its track.
import { calendarZone, zonedInstant } from '../domain/calendar.ts';
import type { FieldIssue } from '../domain/errors.ts';
import type { Markup } from '../http/html.ts';
import {
  type CreateEntryInput,
  PageCreateEntryDocument,
  PageDeleteEntryDocument,
  PageFeedDocument,
  PageImportActivityDocument,
  PageSetEntryTrackDocument,
  type Visibility,
} from '../operations/generated.ts';
import type { RunOperation } from '../rest/execute.ts';
import { type Form, field, issuesOf, seeOther } from './form-outcome.ts';
import { type ComposeDraft, composeForm } from './forms.ts';
import { feedPage } from './pages.ts';
import { type PageRead, pageData } from './routes.ts';

/** `1:02:03`, `45:10` or `2710` (seconds) as seconds; null when it is none of them. */
export function parseDuration(text: string): number | null {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((part) => !/^\d{1,5}$/.test(part))) return null;
  return parts.reduce((seconds, part) => seconds * 60 + Number(part), 0);
}

const upper = (value: string) => value.trim().toUpperCase().replace(/ /g, '_');
const fileOf = (form: Form, name: string) => {
  const value = form.get(name);
  return typeof value === 'object' && value !== null && value.size > 0 ? value : null;
};

/** The form's fields as createEntry's input, or what is wrong with them. */
function entryInput(form: Form, photo: File | null): { input: Partial<CreateEntryInput> } | { issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const input: Record<string, unknown> = {};
  if (field(form, 'message').trim()) input.message = field(form, 'message');
  if (field(form, 'place').trim()) input.placeName = field(form, 'place').trim();
  if (field(form, 'visibility')) input.visibility = field(form, 'visibility') as Visibility;
  if (photo) input.media = { type: 'IMAGE', data: photo };
  if (field(form, 'kind') === 'workout') {
    const workout: Record<string, unknown> = { activityType: upper(field(form, 'activity') || 'running') };
    if (field(form, 'title').trim()) workout.title = field(form, 'title').trim();
    const distance = field(form, 'distance').trim().replace(',', '.');
    if (distance) {
      if (Number.isFinite(Number(distance)) && Number(distance) >= 0)
        workout.distance = { value: Number(distance), units: upper(field(form, 'distance_units') || 'kilometers') };
      else issues.push({ path: 'distance', message: 'is not a number' });
    }
    const duration = field(form, 'duration');
    if (duration.trim()) {
      const seconds = parseDuration(duration);
      if (seconds === null) issues.push({ path: 'duration', message: 'is not a time like 45:10 or 1:02:03' });
      else workout.duration = seconds;
    }
    if (field(form, 'felt')) workout.felt = upper(field(form, 'felt'));
    const gear = chosenGear(form);
    if (gear !== undefined) workout.gearId = gear;
    const date = field(form, 'date');
    if (date) {
      // the form's time is the wall clock of the zone it names (the athlete's, or their browser's)
      const wall = new Date(`${date}${date.length === 16 ? ':00' : ''}Z`).getTime();
      if (Number.isNaN(wall)) issues.push({ path: 'date', message: 'is not a date and time' });
      else workout.completedAt = new Date(zonedInstant(calendarZone(field(form, 'date_zone').slice(0, 100)), wall)).toISOString();
    }
    input.workout = workout;
  }
  return issues.length ? { issues } : { input: input as Partial<CreateEntryInput> };
}

/** The gear the form chose: an id, null for none, undefined for the default of the activity. */
function chosenGear(form: Form): string | null | undefined {
  const gear = field(form, 'gear');
  return gear === '' ? undefined : gear === 'none' ? null : gear;
}

/** Whether a file is a GPX document by its first bytes (not a FIT file, not TCX). */
async function isGpx(file: File): Promise<boolean> {
  const head = new TextDecoder().decode(await file.slice(0, 2048).arrayBuffer());
  return /<gpx[\s>]/.test(head);
}

/** Posts the compose form: the new entry's page (303), or the home page again with what was wrong. */
export async function postEntry(request: Request, read: PageRead, form: Form, run: RunOperation): Promise<Response | Markup> {
  const track = fileOf(form, 'track');
  const photo = fileOf(form, 'photo');
  const again = async (issues: FieldIssue[]) => {
    const data = pageData(await run(PageFeedDocument, request, read.context, { page: 1 }));
    const draft = Object.fromEntries([...form].filter(([, value]) => typeof value === 'string')) as ComposeDraft & Record<string, string>;
    const compose = composeForm(
      read.session.csrf,
      {
        visibility: data.reader?.defaultVisibility ?? 'EVERYONE',
        units: data.reader?.units ?? 'KILOMETERS',
        timeZone: data.reader?.timeZone ?? null,
        gear: data.reader?.gear,
      },
      { ...draft, distanceUnits: draft.distance_units },
      issues,
    );
    const entries = data.stream?.edges.map((edge) => edge.node) ?? [];
    return feedPage(read.visitor(data.reader), { entries, page: 1, hasNext: data.stream?.pageInfo.hasNextPage ?? false }, compose);
  };
  if (track && !photo) {
    const variables = {
      input: {
        file: track,
        ...(field(form, 'message').trim() ? { message: field(form, 'message') } : {}),
        ...(field(form, 'visibility') ? { visibility: field(form, 'visibility') as Visibility } : {}),
        ...(chosenGear(form) !== undefined && { gearId: chosenGear(form) }),
      },
    };
    const imported = await run(PageImportActivityDocument, request, read.context, variables);
    const issues = issuesOf(imported);
    return issues
      ? again(issues.map((issue) => ({ ...issue, path: issue.path === 'file' ? 'track' : issue.path })))
      : seeOther(`/entries/${imported.data!.result.entry!.id}`);
  }
  if (track && !(await isGpx(track)))
    return again([{ path: 'track', message: 'with a photo, the track must be a GPX file; post a FIT or TCX file without a photo' }]);
  if (track && field(form, 'kind') !== 'workout')
    return again([{ path: 'track', message: 'a track belongs to a workout: choose “A workout”' }]);
  if (!track && !photo && field(form, 'kind') !== 'workout' && !field(form, 'message').trim()) {
    return again([{ path: 'message', message: 'write something, or post a workout, a track or a photo' }]);
  }
  const built = entryInput(form, photo);
  if ('issues' in built) return again(built.issues);
  const created = await run(PageCreateEntryDocument, request, read.context, { input: built.input as CreateEntryInput });
  const issues = issuesOf(created);
  if (issues) return again(issues);
  const id = created.data!.result.entry!.id;
  if (track) {
    const attached = issuesOf(await run(PageSetEntryTrackDocument, request, read.context, { id, gpx: track }));
    if (attached) {
      // the entry and its track are posted together or not at all
      await run(PageDeleteEntryDocument, request, read.context, { id });
      return again(attached.map((issue) => ({ ...issue, path: 'track' })));
    }
  }
  return seeOther(`/entries/${id}`);
}
