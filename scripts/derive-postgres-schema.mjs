#!/usr/bin/env node
// Derives prisma/postgres/schema.prisma from prisma/schema.prisma (the single source of truth).
// Usage: node scripts/derive-postgres-schema.mjs [--check]
// --check exits 1 when the committed PostgreSQL schema differs from what would be derived.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sourcePath = `${root}prisma/schema.prisma`;
const targetPath = `${root}prisma/postgres/schema.prisma`;

export function derivePostgresSchema(source) {
  const blocks = source.split(/\n(?=(?:generator|datasource|model|enum) )/);
  const derived = blocks
    // one set of Pothos types serves both clients: the models are identical
    .filter((block) => !block.startsWith('generator pothos'))
    .map((block) =>
      block
        .replace('provider = "sqlite"', 'provider = "postgresql"')
        .replace('"../src/generated/prisma-sqlite"', '"../../src/generated/prisma-postgres"'),
    )
    .join('\n');
  const header = '// GENERATED from prisma/schema.prisma by scripts/derive-postgres-schema.mjs. Do not edit by hand.\n';
  return header + derived.replace(/^(\/\/[^\n]*\n)+/, '');
}

const expected = derivePostgresSchema(readFileSync(sourcePath, 'utf8'));
if (process.argv.includes('--check')) {
  const actual = existsSync(targetPath) ? readFileSync(targetPath, 'utf8') : '';
  if (actual !== expected) {
    console.error('prisma/postgres/schema.prisma is out of date: run `npm run db:derive` and commit the result.');
    process.exit(1);
  }
  console.log('prisma/postgres/schema.prisma matches prisma/schema.prisma');
} else {
  writeFileSync(targetPath, expected);
  console.log('wrote prisma/postgres/schema.prisma');
}
