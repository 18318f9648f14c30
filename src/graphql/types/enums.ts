import { ACTIVITY_TYPES, DISTANCE_UNITS, ENTRY_KINDS, FEELINGS, UNIT_PREFERENCES } from '../../domain/activity.ts';
import { VISIBILITIES } from '../../domain/visibility.ts';
import { builder } from '../builder.ts';

// GraphQL names are upper case; the values are the lower-case strings of SPEC.md, as stored.
function enumValues<const T extends readonly string[]>(values: T) {
  return Object.fromEntries(values.map((value) => [value.toUpperCase(), { value }])) as {
    [K in T[number] as Uppercase<K>]: { value: K };
  };
}

export const ActivityTypeEnum = builder.enumType('ActivityType', {
  description: 'The kind of workout (SPEC 2.3).',
  values: enumValues(ACTIVITY_TYPES),
});

export const FeltEnum = builder.enumType('Felt', {
  description: 'How the workout felt.',
  values: enumValues(FEELINGS),
});

export const DistanceUnitsEnum = builder.enumType('DistanceUnits', {
  values: enumValues(DISTANCE_UNITS),
});

export const UnitPreferenceEnum = builder.enumType('UnitPreference', {
  description: "A person's preferred units; sets the default units of their distances.",
  values: enumValues(UNIT_PREFERENCES),
});

export const EntryKindEnum = builder.enumType('EntryKind', {
  values: enumValues(ENTRY_KINDS),
});

export const MediaTypeEnum = builder.enumType('MediaType', {
  description: 'What is attached to an entry.',
  values: { IMAGE: { value: 'image' as const } },
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
  values: enumValues(VISIBILITIES),
});
