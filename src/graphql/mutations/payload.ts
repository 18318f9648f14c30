// The one shape of every mutation (Relay's input-object mutations, as GitHub's and Shopify's APIs
// have them): `name(input: NameInput!): NamePayload!`. The input holds every argument and an optional
// `clientMutationId`, which the payload hands back. The payload holds what changed (and the edge a new
// item joins its list with), or `error`: the typed error that stopped the mutation, one of the
// `NameError` union's members. An expected failure is data, never a GraphQL error, so a client's cache
// never takes an error for an object and a REST path maps it to its status.
import type { FieldMap, InputFieldMap, InputShapeFromFields } from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import { type DomainError, InsufficientScopeError } from '../../domain/errors.ts';
import type { Scope } from '../../domain/scopes.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { ERROR_TYPE_NAMES, errorValue } from '../types/errors.ts';

export type PayloadTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type Types = PayloadTypes;

/** A typed error class the schema has an object type of (graphql/types/errors.ts). */
type TypedErrorClass = abstract new (...args: never[]) => DomainError;

/** The field builder of a payload whose mutation answers `Result`. */
export type PayloadFieldBuilder<Result> = PothosSchemaTypes.ObjectFieldBuilder<Types, Payload<Result>>;

/** What a payload's fields read: the mutation's result, or the error that stopped it. */
export interface Payload<Result> {
  clientMutationId: string | null;
  result: Result | null;
  error: DomainError | null;
}

/** In the order TypeScript reads them: the input's fields type `resolve`, whose result types the payload's fields. */
interface PayloadMutationOptions<Fields extends InputFieldMap, Result> {
  description: string;
  /** What the input describes; its fields, without `clientMutationId` (added here). */
  input: { description: string; fields: (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => Fields };
  /** What the payload describes; its fields, which read `payload.result` (null when the mutation failed). */
  payload: {
    description: string;
    fields: (t: PothosSchemaTypes.ObjectFieldBuilder<Types, Payload<Result>>) => FieldMap;
  };
  /** The scope a token needs for it (domain/scopes.ts): without it, `error` is an InsufficientScopeError. */
  scope: Scope;
  /** The typed errors the mutation may answer in `error` (InsufficientScopeError is added). */
  errors: readonly TypedErrorClass[];
  resolve: (input: InputShapeFromFields<Fields>, context: Context, info: GraphQLResolveInfo) => Promise<Result>;
}

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** Defines the mutation `name` with its `<Name>Input`, `<Name>Payload` and `<Name>Error`. */
export function payloadMutation<Fields extends InputFieldMap, Result>(name: string, options: PayloadMutationOptions<Fields, Result>) {
  const type = pascal(name);
  const errors = [...options.errors, InsufficientScopeError];
  const errorNames = errors.map((error) => ERROR_TYPE_NAMES.get(error)!);
  const input = builder.inputType(`${type}Input`, {
    description: options.input.description,
    fields: (t) => ({
      ...options.input.fields(t),
      clientMutationId: t.string({
        description: 'Any string the client chooses; the payload hands it back, to match an answer to its request.',
      }),
    }),
  });
  const errorUnion = builder.unionType(`${type}Error`, {
    description: `Why \`${name}\` changed nothing: one of the typed errors it may meet, each with a stable \`code\`.`,
    types: errors as never,
    resolveType: (error) => (error as { type: string }).type,
  });
  const payload = builder.objectRef<Payload<Result>>(`${type}Payload`).implement({
    description: options.payload.description,
    fields: (t) => ({
      ...options.payload.fields(t),
      clientMutationId: t.string({
        nullable: true,
        description: 'The `clientMutationId` of the input, as sent.',
        resolve: (payload) => payload.clientMutationId,
      }),
      error: t.field({
        type: errorUnion,
        nullable: true,
        description: `Why nothing changed (${errorNames.map((error) => `\`${error}\``).join(', ')}); null when the mutation succeeded.`,
        resolve: (payload) => (payload.error ? errorValue(payload.error) : null),
      }),
    }),
  });
  builder.mutationField(name, (t) =>
    t.field({
      type: payload,
      description: `${options.description} Needs the scope \`${options.scope}\`.`,
      args: { input: t.arg({ type: input, required: true, description: 'What to do.' }) },
      // the typed errors a client may meet and the scope it needs, for the generated REST API and its OpenAPI document
      extensions: { failures: errorNames, scope: options.scope },
      resolve: async (_root, args, context, info) => {
        const { clientMutationId = null, ...given } = (args as unknown as { input: { clientMutationId?: string | null } }).input;
        try {
          // without a token the mutation's own check answers NotAuthorizedError
          if (context.viewer && !context.viewer.scopes.has(options.scope)) throw new InsufficientScopeError(options.scope);
          const result = await options.resolve(given as InputShapeFromFields<Fields>, context, info);
          return { clientMutationId, result, error: null };
        } catch (error) {
          if (errors.some((known) => error instanceof known)) return { clientMutationId, result: null, error: error as DomainError };
          throw error;
        }
      },
    }),
  );
}

/**
 * A payload's Prisma object: `read` with what the operation asks of it (`query`), null when the
 * mutation failed. The query is taken either way: an unread one would be reported as lost.
 */
export function readAfter<Result, Query extends object, Row>(
  payload: Payload<Result>,
  query: Query,
  read: (result: Result, query: Query) => Promise<Row | null>,
): Promise<Row | null> | null {
  const selection = { ...query };
  return payload.result === null ? null : read(payload.result, selection);
}

/** A payload field's resolver: `read` of the result, null when the mutation failed. */
export const ofResult =
  <Result, Value>(read: (result: Result) => Value) =>
  (payload: Payload<Result>): Value | null =>
    payload.result === null ? null : read(payload.result);
