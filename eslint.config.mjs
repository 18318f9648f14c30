// Two checks in `npm test` beside Biome's (which lints and formats all TypeScript and JavaScript):
// - the schema as frontend teams read it: graphql-eslint's schema-recommended and Relay rules over the
//   printed schema (schema/schema.graphql);
// - the rules only the type checker can decide, over src/: every promise awaited or handled, none
//   handed where a function's result is dropped (a rejection there is unhandled, and ends the process),
//   only Errors thrown and rejected. typescript-eslint reads tsconfig.json for the types.
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Types without an identity of their own: values (a distance, a point, a page's position), parts
 * read only through their owner (an entry's workout, a track, its points), aggregates computed per
 * request (stats, records), and results. None can be fetched again by an id, so none has one.
 */
const VALUE_TYPES = [
  'ActivityTotals',
  'CommentChange',
  // what remains of a deleted entry: no object of its own, so no id (a second type under the entry's would confuse Relay's store)
  'DeletedEntry',
  'Distance',
  'EmailSettings',
  // remote accounts and what they did: named by their ActivityPub ids (`uri`), not objects of this service
  'FediverseAccount',
  'FediverseFollower',
  'FediverseFollowing',
  'FediverseInstance',
  'FediversePost',
  'FediverseReaction',
  'FieldIssue',
  'FriendshipState',
  'GearTotals',
  'GeoPoint',
  'Lap',
  'LikeChange',
  'Location',
  'MeasureRecord',
  'NotificationPreference',
  'Media',
  'MediaObject',
  'PageInfo',
  'PeriodTotals',
  'PersonRecords',
  'PersonSuggestion',
  'PowerEffort',
  'PowerRecord',
  'RateLimit',
  'Photo',
  'RunningRecord',
  'Split',
  'Streak',
  'Totals',
  'Track',
  'TrackEffort',
  'TrackHiddenParts',
  'TrackPoint',
  'TrackStreams',
  'TrackWaypoint',
  'TrainingStats',
  'Workout',
  'Zone',
  'ZoneTimes',
];

export default [
  {
    files: ['src/**/*.ts'],
    ignores: ['src/generated/**'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
    },
  },
  {
    files: ['schema/schema.graphql'],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: 'schema/schema.graphql' } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...graphqlPlugin.configs['flat/schema-recommended'].rules,
      ...graphqlPlugin.configs['flat/schema-relay'].rules,
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: { suffixes: ['Connection', 'Edge', 'Error', 'Payload'], types: VALUE_TYPES },
        },
      ],
      // every list that grows is a connection; the plain lists left are bounded by what holds them: a
      // track's points (`max`), its laps, splits and zones, a period's totals (210 at most), the distances records are kept at,
      // an entry's one image, a person's privacy zones and gear (100), a refusal's issues, `nodes(ids:)` (100)
      '@graphql-eslint/relay-edge-types': ['error', { listTypeCanWrapOnlyEdgeType: false }],
    },
  },
];
