import { ACTIVITY_TYPES, DISTANCE_UNITS, ENTRY_KINDS, FEELINGS, UNIT_PREFERENCES } from '../../domain/activity.ts';
import { GEAR_KINDS } from '../../domain/gear.ts';
import { VISIBILITIES } from '../../domain/visibility.ts';
import { builder } from '../builder.ts';

// GraphQL names are upper case; the values are the lower-case strings of SPEC.md, as stored; each says what it means.
function enumValues<const T extends readonly string[]>(values: T, descriptions: Record<T[number], string>) {
  return Object.fromEntries(values.map((value: T[number]) => [value.toUpperCase(), { value, description: descriptions[value] }])) as {
    [K in T[number] as Uppercase<K>]: { value: K; description: string };
  };
}

const ACTIVITY_DESCRIPTIONS: Record<(typeof ACTIVITY_TYPES)[number], string> = {
  running: 'Running (SPEC).',
  cycling: 'Cycling (SPEC).',
  swimming: 'Swimming (SPEC); its distances default to yards or meters.',
  walking: 'Walking (SPEC).',
  fitness: 'Any other exercise (SPEC).',
  cc_skiing: 'Cross-country skiing; REST answers it as "Cc Skiing".',
  commute: 'A ride or run to get somewhere.',
  core_fitness: 'Core training.',
  crossfit: 'CrossFit.',
  cross_training: 'Cross-training.',
  elliptical: 'The elliptical trainer.',
  hiking: 'Hiking.',
  inline_skating: 'Inline skating.',
  rock_climbing: 'Rock climbing.',
  rowing: 'Rowing; its distances default to meters.',
  spinning: 'Indoor cycling.',
  weights: 'Weight training.',
  yoga: 'Yoga.',
};

export const ActivityTypeEnum = builder.enumType('ActivityType', {
  description: 'The kind of workout (SPEC 2.3).',
  values: enumValues(ACTIVITY_TYPES, ACTIVITY_DESCRIPTIONS),
});

export const FeltEnum = builder.enumType('Felt', {
  description: 'How the workout felt.',
  values: enumValues(FEELINGS, {
    great: 'Great.',
    good: 'Good.',
    alright: 'Alright.',
    blah: 'Blah.',
    tired: 'Tired.',
    injured: 'Injured.',
  }),
});

export const DistanceUnitsEnum = builder.enumType('DistanceUnits', {
  description: 'The units of a distance.',
  values: enumValues(DISTANCE_UNITS, {
    miles: 'Statute miles (1,609.344 m).',
    kilometers: 'Kilometers.',
    yards: 'Yards (0.9144 m), for swims.',
    meters: 'Meters, for swims and rowing.',
  }),
});

export const UnitPreferenceEnum = builder.enumType('UnitPreference', {
  description: "A person's preferred units; sets the default units of their distances.",
  values: enumValues(UNIT_PREFERENCES, { miles: 'Miles (and yards for swims).', kilometers: 'Kilometers (and meters for swims).' }),
});

export const EntryKindEnum = builder.enumType('EntryKind', {
  description: 'What an entry is.',
  values: enumValues(ENTRY_KINDS, {
    note: 'A note: a message, maybe a place or a photo.',
    workout: 'A workout, with its `workout` details.',
  }),
});

export const MediaTypeEnum = builder.enumType('MediaType', {
  description: 'What is attached to an entry.',
  values: { IMAGE: { value: 'image' as const, description: 'A photo (JPEG, PNG, WebP or GIF).' } },
});

export const FriendshipStatusEnum = builder.enumType('FriendshipStatus', {
  description: 'Where the viewer stands with another person.',
  values: {
    NONE: { value: 'none' as const, description: 'Not friends, no request either way.' },
    REQUESTED: { value: 'requested' as const, description: 'The viewer asked; the other person has not answered.' },
    INCOMING: { value: 'incoming' as const, description: 'The other person asked; the viewer may accept or decline.' },
    FRIENDS: { value: 'friends' as const, description: 'Friends, both ways.' },
  },
});

export const VisibilityEnum = builder.enumType('Visibility', {
  description:
    'Who sees an entry: EVERYONE (with or without a token), FRIENDS (the author and their friends), ONLY_ME (the author). ' +
    'To anyone else a hidden entry does not exist: every read leaves it out, and asking for it by id is "not found".',
  values: enumValues(VISIBILITIES, {
    everyone: 'Everyone, with or without a token.',
    friends: 'The author and their friends.',
    only_me: 'The author alone.',
  }),
});

export const GearKindEnum = builder.enumType('GearKind', {
  description: 'What a piece of gear is.',
  values: enumValues(GEAR_KINDS, {
    shoes: 'Running or walking shoes.',
    bike: 'A bicycle.',
    other: 'Anything else worn out by workouts: skis, a paddle, a rower.',
  }),
});
