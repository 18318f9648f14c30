import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { GraphQLSchema, printSchema } from 'graphql';
import { sortedSchema } from './schema.ts';

/**
 * The committed SDL: sorted, so that reordering code never shows up as a schema change. With `@defer`
 * and `@stream`, which the server accepts (yoga's plugin adds them when it serves the schema), so that
 * tools working from the file (relay-compiler, codegen) know them as introspection does.
 */
export function printSchemaFile(): string {
  const config = sortedSchema.toConfig();
  const known = new Set(config.directives.map((directive) => directive.name));
  const served = new GraphQLSchema({
    ...config,
    directives: [
      ...config.directives,
      ...[GraphQLDeferDirective, GraphQLStreamDirective].filter((directive) => !known.has(directive.name)),
    ],
  });
  return `# GENERATED from src/graphql by \`npm run schema:print\`. Do not edit by hand.\n\n${printSchema(served)}\n`;
}
