import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { GraphQLSchema, introspectionFromSchema, isAbstractType, isNonNullType, isObjectType, printSchema } from 'graphql';
import { sortedSchema } from './schema.ts';

/**
 * The committed SDL: sorted, so that reordering code never shows up as a schema change. With `@defer`
 * and `@stream`, which the server accepts (yoga's plugin adds them when it serves the schema), so that
 * tools working from the file (relay-compiler, codegen) know them as introspection does.
 */
function servedSchema(): GraphQLSchema {
  const config = sortedSchema.toConfig();
  const known = new Set(config.directives.map((directive) => directive.name));
  const served = new GraphQLSchema({
    ...config,
    directives: [
      ...config.directives,
      ...[GraphQLDeferDirective, GraphQLStreamDirective].filter((directive) => !known.has(directive.name)),
    ],
  });
  return served;
}

export function printSchemaFile(): string {
  return `# GENERATED from src/graphql by \`npm run schema:print\`. Do not edit by hand.\n\n${printSchema(servedSchema())}\n`;
}

/**
 * What a normalized cache needs to know of the schema, committed beside it (schema/client-cache.json):
 * `possibleTypes`, each union and interface with the types that may stand for it, for Apollo's
 * InMemoryCache (without it, a typed error in a union came back as its `__typename` alone); and
 * `valueTypes`, the object types without an identity, which urql's graphcache is to keep inside their
 * parent (`keys: { Distance: () => null, … }`; without it, it warned "Invalid key" on each).
 */
export function printClientCacheFile(): string {
  const schema = servedSchema();
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name));
  const possibleTypes: Record<string, string[]> = {};
  const valueTypes: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isAbstractType(type))
      possibleTypes[type.name] = schema
        .getPossibleTypes(type)
        .map((member) => member.name)
        .sort();
    else if (isObjectType(type) && !roots.has(type.name)) {
      const id = type.getFields().id;
      if (!id || !isNonNullType(id.type)) valueTypes.push(type.name);
    }
  }
  return `${JSON.stringify({ possibleTypes, valueTypes: valueTypes.sort() }, null, 2)}\n`;
}

/** The schema's introspection, without descriptions, for graphcache's `schema` option (exact fragment matching). */
export function printIntrospectionFile(): string {
  return `${JSON.stringify(introspectionFromSchema(servedSchema(), { descriptions: false }))}\n`;
}
