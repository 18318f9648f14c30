// Prints the GraphQL schema from the code to schema/schema.graphql, the file frontend teams and
// codegen work from, and beside it what normalized caches need (schema/client-cache.json: Apollo's
// possibleTypes, graphcache's value types; schema/introspection.json: graphcache's schema). `--check`
// exits 1 when a committed file differs (CI runs the same comparison as a test).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printClientCacheFile, printIntrospectionFile, printSchemaFile } from '../src/graphql/print.ts';

const files: Array<[string, string]> = [
  ['schema/schema.graphql', printSchemaFile()],
  ['schema/client-cache.json', printClientCacheFile()],
  ['schema/introspection.json', printIntrospectionFile()],
];
let stale = false;
for (const [name, printed] of files) {
  const target = fileURLToPath(new URL(`../${name}`, import.meta.url));
  if (process.argv.includes('--check')) {
    if (!existsSync(target) || readFileSync(target, 'utf8') !== printed) {
      console.error(`${name} is out of date: run \`npm run schema:print\` and commit it.`);
      stale = true;
    } else console.log(`${name} matches the code`);
  } else {
    writeFileSync(target, printed);
    console.log(`wrote ${name}`);
  }
}
if (stale) process.exit(1);
