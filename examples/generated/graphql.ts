/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The kind of workout (SPEC 2.3). */
export type ActivityType =
  /** Cross-country skiing; REST answers it as "Cc Skiing". */
  | 'CC_SKIING'
  /** A ride or run to get somewhere. */
  | 'COMMUTE'
  /** Core training. */
  | 'CORE_FITNESS'
  /** CrossFit. */
  | 'CROSSFIT'
  /** Cross-training. */
  | 'CROSS_TRAINING'
  /** Cycling (SPEC). */
  | 'CYCLING'
  /** The elliptical trainer. */
  | 'ELLIPTICAL'
  /** Any other exercise (SPEC). */
  | 'FITNESS'
  /** Hiking. */
  | 'HIKING'
  /** Inline skating. */
  | 'INLINE_SKATING'
  /** Rock climbing. */
  | 'ROCK_CLIMBING'
  /** Rowing; its distances default to meters. */
  | 'ROWING'
  /** Running (SPEC). */
  | 'RUNNING'
  /** Indoor cycling. */
  | 'SPINNING'
  /** Swimming (SPEC); its distances default to yards or meters. */
  | 'SWIMMING'
  /** Walking (SPEC). */
  | 'WALKING'
  /** Weight training. */
  | 'WEIGHTS'
  /** Yoga. */
  | 'YOGA';

/** The units of a distance. */
export type DistanceUnits =
  /** Kilometers. */
  | 'KILOMETERS'
  /** Meters, for swims and rowing. */
  | 'METERS'
  /** Statute miles (1,609.344 m). */
  | 'MILES'
  /** Yards (0.9144 m), for swims. */
  | 'YARDS';

/** How the workout felt. */
export type Felt =
  /** Alright. */
  | 'ALRIGHT'
  /** Blah. */
  | 'BLAH'
  /** Good. */
  | 'GOOD'
  /** Great. */
  | 'GREAT'
  /** Injured. */
  | 'INJURED'
  /** Tired. */
  | 'TIRED';

export type PublicStreamQueryVariables = Exact<{
  page?: number | null | undefined;
  until?: number | null | undefined;
}>;


export type PublicStreamQuery = { publicStream: { edges: Array<{ node: { id: string, url: string, at: string, message: string | null, location: { name: string } | null, author: { username: string, displayName: string, photoUrl: string, url: string }, workout: { activityType: ActivityType, duration: number | null, felt: Felt | null, title: string | null, distance: { value: number, units: DistanceUnits } | null } | null, comments: { edges: Array<{ node: { body: string, createdAt: string, author: { username: string } } }> }, likes: { edges: Array<{ node: { person: { username: string } } }> } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null };


export const PublicStreamDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PublicStream"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"until"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UnixTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicStream"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"until"},"value":{"kind":"Variable","name":{"kind":"Name","value":"until"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"location"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"photoUrl"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"activityType"}},{"kind":"Field","name":{"kind":"Name","value":"distance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"units"}}]}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"felt"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"comments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"username"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"likes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"person"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"username"}}]}}]}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<PublicStreamQuery, PublicStreamQueryVariables>;