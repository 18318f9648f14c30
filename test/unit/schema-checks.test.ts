// The development-time schema checks are a setting of each server, carried by the operation's root
// value: a production server turns them off for its own operations only.
import { envelop, useEngine, useSchema } from '@envelop/core';
import * as graphql from 'graphql';
import { describe, expect, it } from 'vitest';
import { builder, useSchemaChecks } from '../../src/graphql/builder.ts';

const probe = new graphql.GraphQLSchema({
  query: new graphql.GraphQLObjectType({
    name: 'Query',
    fields: {
      strict: { type: graphql.GraphQLString, resolve: (_root, _args, _context, info) => JSON.stringify(info.rootValue) },
    },
  }),
});

async function rootValueSeen(strict: boolean): Promise<unknown> {
  const getEnveloped = envelop({ plugins: [useEngine(graphql), useSchema(probe), useSchemaChecks({ strict })] });
  const { execute, schema, parse, contextFactory } = getEnveloped();
  const result = (await execute({
    schema,
    document: parse('{ strict }'),
    contextValue: await contextFactory(),
  })) as graphql.ExecutionResult;
  return JSON.parse(result.data!.strict as string);
}

describe('schema checks', () => {
  it('reach every resolver through the root value of the server that set them', async () => {
    expect(await rootValueSeen(false)).toEqual({ strictSchemaChecks: false });
    expect(await rootValueSeen(true)).toEqual({ strictSchemaChecks: true });
  });

  it('throw on an unused Prisma query unless the operation says they are off', () => {
    const onUnusedQuery = builder.options.prisma.onUnusedQuery as (info: unknown) => void;
    const info = (rootValue: unknown) => ({ rootValue, parentType: { name: 'Entry' }, fieldName: 'author' });
    expect(() => onUnusedQuery(info(undefined))).toThrow('unused prisma query for Entry.author');
    expect(() => onUnusedQuery(info({ strictSchemaChecks: true }))).toThrow();
    expect(() => onUnusedQuery(info({ strictSchemaChecks: false }))).not.toThrow();
  });
});
