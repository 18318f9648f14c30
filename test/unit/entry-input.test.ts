// Field rules of writes (SPEC 2.3, 4.3, 4.4), at their boundaries.

import { describe, expect, it } from 'vitest';
import { validateSignUp } from '../../src/domain/accounts.ts';
import { type CreateEntryInput, validateCreateEntry, validateEntryEdit } from '../../src/domain/entry-input.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { validateCommentBody, validateProfile } from '../../src/domain/social.ts';

function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => i.path);
    throw error;
  }
  return [];
}

const run = (input: CreateEntryInput) => () => validateCreateEntry(input, 'miles');

describe('createEntry field rules', () => {
  it.each<[string, CreateEntryInput, string[]]>([
    ['a note', { message: 'Rest day' }, []],
    ['lat 90 with lon', { lat: 90, lon: 0 }, []],
    ['lat 90.0001', { lat: 90.0001, lon: 0 }, ['lat']],
    ['lat -90.0001', { lat: -90.0001, lon: 0 }, ['lat']],
    ['lon 180', { lat: 0, lon: 180 }, []],
    ['lon -180.0001', { lat: 0, lon: -180.0001 }, ['lon']],
    ['lat without lon', { message: 'x', lat: 10 }, ['lon']],
    ['lon without lat', { message: 'x', lon: 10 }, ['lat']],
    ['NaN latitude', { lat: Number.NaN, lon: 1 }, ['lat']],
    ['a workout without activity type', { workout: {} }, ['workout.activityType']],
    ['distance 0', { workout: { activityType: 'running', distance: { value: 0 } } }, []],
    ['negative distance', { workout: { activityType: 'running', distance: { value: -0.01 } } }, ['workout.distance.value']],
    ['units without a value', { workout: { activityType: 'running', distance: { units: 'miles' } } }, ['workout.distance.value']],
    ['duration 0', { workout: { activityType: 'fitness', duration: 0 } }, []],
    ['negative duration', { workout: { activityType: 'fitness', duration: -1 } }, ['workout.duration']],
    ['fractional duration', { workout: { activityType: 'fitness', duration: 1.5 } }, ['workout.duration']],
    ['negative calories', { workout: { activityType: 'fitness', calories: -5 } }, ['workout.calories']],
    ['a 200-character title', { workout: { activityType: 'walking', title: 'x'.repeat(200) } }, []],
    ['a 201-character title', { workout: { activityType: 'walking', title: 'x'.repeat(201) } }, ['workout.title']],
    ['an image', { media: { type: 'image', url: 'https://img.example/a.jpg' } }, []],
    ['an image without url', { media: { type: 'image', url: '' } }, ['media.url']],
    ['an image at a javascript: URL', { media: { type: 'image', url: 'javascript:alert(1)' } }, ['media.url']],
    ['an image at a relative URL', { media: { type: 'image', url: '/a.jpg' } }, ['media.url']],
    ['nothing at all', {}, ['message']],
    ['only spaces', { message: '   ' }, ['message']],
    ['a 5001-character message', { message: 'x'.repeat(5001) }, ['message']],
    ['two problems at once', { lat: 91, lon: 181 }, ['lat', 'lon']],
  ])('%s', (_name, input, expected) => {
    expect(issuesOf(run(input))).toEqual(expected);
  });

  it('defaults distance units from the preference, and swims to pool units', () => {
    expect(validateCreateEntry({ workout: { activityType: 'running', distance: { value: 5 } } }, 'kilometers').workout).toMatchObject({
      distanceUnits: 'kilometers',
    });
    expect(validateCreateEntry({ workout: { activityType: 'swimming', distance: { value: 1500 } } }, 'kilometers').workout).toMatchObject({
      distanceUnits: 'meters',
    });
    expect(validateCreateEntry({ workout: { activityType: 'swimming', distance: { value: 1650 } } }, 'miles').workout).toMatchObject({
      distanceUnits: 'yards',
    });
    expect(
      validateCreateEntry({ workout: { activityType: 'swimming', distance: { value: 1, units: 'miles' } } }, 'miles').workout,
    ).toMatchObject({ distanceUnits: 'miles' });
  });

  it('is a workout entry when a workout is sent, a note otherwise', () => {
    expect(validateCreateEntry({ workout: { activityType: 'cycling' } }, 'miles').kind).toBe('workout');
    expect(validateCreateEntry({ message: 'hi', media: { type: 'image', url: 'https://x.example/p.png' } }, 'miles').kind).toBe('note');
  });
});

describe('comment bodies', () => {
  it.each([
    ['x'.repeat(510), true],
    ['x'.repeat(511), false],
    [`  ${'x'.repeat(510)}  `, true],
    ['🏃'.repeat(510), true],
    ['', false],
    ['   \n ', false],
  ])('%#: %s… accepted: %s', (body, ok) => {
    expect(issuesOf(() => validateCommentBody(body))).toEqual(ok ? [] : ['body']);
  });
});

describe('profiles', () => {
  it('change only what is given, clear with an empty string, and name bad fields', () => {
    expect(validateProfile({ location: '  Oakland, CA ' })).toEqual({ location: 'Oakland, CA' });
    expect(validateProfile({ goal: '' })).toEqual({ goal: null });
    // a text sent as null clears it; a choice or a number sent as null leaves what is stored
    expect(validateProfile({ location: null, units: null, weekStart: null, hiddenEndsMeters: null })).toEqual({ location: null });
    expect(validateProfile({ units: 'miles', weekStart: 7, hiddenEndsMeters: 0 })).toEqual({
      units: 'miles',
      weekStart: 7,
      hiddenEndsMeters: 0,
    });
    expect(
      issuesOf(() => validateProfile({ weekStart: 8, hiddenEndsMeters: -1, photo: true, photoUrl: 'https://x.example/a.png' })),
    ).toEqual(['hiddenEndsMeters', 'weekStart', 'photo']);
    expect(issuesOf(() => validateProfile({ displayName: '', photoUrl: 'ftp://x/y.png', timeZone: 'x'.repeat(101) }))).toEqual([
      'displayName',
      'timeZone',
      'photoUrl',
    ]);
  });

  // a name is a line of the mails others receive: a line break in it showed there as a paragraph of its own
  it.each(['Jo\r\nSmith', 'Jo\nSmith', 'Jo\u2028Smith', 'Jo\u0085Smith', 'Jo\tSmith', 'Jo\u2029Smith'])(
    'refuses the name %j, not on one line',
    (name) => {
      expect(issuesOf(() => validateProfile({ displayName: name }))).toEqual(['displayName']);
      expect(issuesOf(() => validateSignUp({ username: 'jo', password: 'a long password', displayName: name }))).toEqual(['display_name']);
    },
  );
});

describe('updateEntry field rules', () => {
  const note = { hasWorkout: false, hasMedia: false, hasPlace: false };
  const workout = { hasWorkout: true, hasMedia: false, hasPlace: false };
  it('trims, clears with null or blank, and leaves out what is not given', () => {
    expect(validateEntryEdit({ message: '  New words ' }, note)).toEqual({ message: 'New words' });
    expect(validateEntryEdit({ message: '   ', workoutTitle: null }, workout)).toEqual({ message: null, workoutTitle: null });
    expect(validateEntryEdit({}, note)).toEqual({});
    // a note with a photo or a place may lose its words
    expect(validateEntryEdit({ message: null }, { ...note, hasMedia: true })).toEqual({ message: null });
    expect(validateEntryEdit({ message: null }, { ...note, hasPlace: true })).toEqual({ message: null });
  });

  it.each<[string, Parameters<typeof validateEntryEdit>[0], string[]]>([
    ['a note left with nothing', { message: '' }, ['message']],
    ['a message past 5000 characters', { message: 'a'.repeat(5001) }, ['message']],
    ['a title for a note', { workoutTitle: 'Tempo' }, ['workoutTitle']],
  ])('refuses %s', (_name, input, paths) => {
    expect(issuesOf(() => validateEntryEdit(input, note))).toEqual(paths);
  });

  it('refuses a workout title past 200 characters', () => {
    expect(issuesOf(() => validateEntryEdit({ workoutTitle: 't'.repeat(201) }, workout))).toEqual(['workoutTitle']);
    expect(validateEntryEdit({ workoutTitle: 't'.repeat(200) }, workout).workoutTitle).toHaveLength(200);
  });
});
