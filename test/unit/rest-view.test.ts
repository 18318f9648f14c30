// The REST view of the schema (src/rest/rest-view.ts): what /api/v1's operations select.
import { type GraphQLObjectType, getNamedType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { generatedOperations } from '../../src/rest/generated-api.ts';
import { LEFT_OUT, restViewSchema } from '../../src/rest/rest-view.ts';

const view = restViewSchema(schema);
const fieldsOf = (name: string) => Object.keys((view.getType(name) as GraphQLObjectType).getFields());
const typeOf = (type: string, field: string) => getNamedType((view.getType(type) as GraphQLObjectType).getFields()[field]!.type).name;

describe('the REST view of the schema', () => {
  it('keeps every query but node and nodes (REST has a path for each kind) and rateLimit (its headers say it), every mutation, and no subscription', () => {
    expect(Object.keys(view.getQueryType()!.getFields())).toEqual(
      Object.keys(schema.getQueryType()!.getFields()).filter((field) => !['node', 'nodes', 'rateLimit'].includes(field)),
    );
    expect(Object.keys(view.getMutationType()!.getFields())).toEqual(Object.keys(schema.getMutationType()!.getFields()));
    expect(view.getSubscriptionType()).toBeUndefined();
  });

  it('answers a person whole at their own path, and as a summary inside anything else', () => {
    expect(typeOf('Query', 'person')).toBe('Person');
    expect(fieldsOf('Person')).toEqual(expect.arrayContaining(['routes', 'friends', 'friendRequests']));
    for (const [type, field] of [
      ['Entry', 'author'],
      ['Comment', 'author'],
      ['Like', 'person'],
      ['Route', 'owner'],
      // friends and friend requests: PersonConnection
      ['PersonEdge', 'node'],
    ] as const) {
      expect(typeOf(type, field), `${type}.${field}`).toBe('PersonSummary');
    }
    expect(fieldsOf('PersonSummary')).not.toContain('routes');
    expect(fieldsOf('PersonSummary')).toEqual(expect.arrayContaining(['username', 'displayName', 'url', 'photoUrl']));
  });

  it('leaves out the fields that would make an answer huge', () => {
    for (const path of Object.keys(LEFT_OUT)) {
      const [type, field] = path.split('.');
      expect(fieldsOf(type!), path).not.toContain(field);
    }
  });

  it('gives each operation a path of its own, fixed paths before parameters', () => {
    const operations = generatedOperations(view);
    const keys = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.indexOf('GET /entries/nearby')).toBeLessThan(keys.indexOf('GET /entries/:id'));
    expect(operations.find((operation) => operation.field === 'setEntryTrack')?.uploads).toBe(true);
    expect(operations.find((operation) => operation.field === 'createEntry')).toMatchObject({
      method: 'POST',
      path: '/create-entry',
      status: 201,
    });
  });
});
