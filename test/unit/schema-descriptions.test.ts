// Every element of the schema says what it is: frontend teams work from the schema (GraphiQL's docs,
// codegen's comments), so a type, field, argument, enum value or union without a description fails here.
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';

function undescribed(): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (!type.description?.trim()) missing.push(`type ${type.name}`);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : [])
          if (!arg.description?.trim()) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) if (!value.description?.trim()) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

describe('the schema', () => {
  it('describes every type, field, argument, enum value and union', () => {
    expect(undescribed()).toEqual([]);
  });
});
