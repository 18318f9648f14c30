// Prints the GraphQL schema from the code to schema/schema.graphql, the file frontend teams and
// codegen work from. `--check` exits 1 when the committed file differs (CI runs the same comparison
// as a test).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchemaFile } from '../src/graphql/print.ts';

const target = fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
const printed = printSchemaFile();
if (process.argv.includes('--check')) {
  if (!existsSync(target) || readFileSync(target, 'utf8') !== printed) {
    console.error('schema/schema.graphql is out of date: run `npm run schema:print` and commit it.');
    process.exit(1);
  }
  console.log('schema/schema.graphql matches the code');
} else {
  writeFileSync(target, printed);
  console.log('wrote schema/schema.graphql');
}
