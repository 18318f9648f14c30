import { printSchema } from 'graphql';
import { sortedSchema } from './schema.ts';

/** The committed SDL: sorted, so that reordering code never shows up as a schema change. */
export function printSchemaFile(): string {
  return `# GENERATED from src/graphql by \`npm run schema:print\`. Do not edit by hand.\n\n${printSchema(sortedSchema)}\n`;
}
