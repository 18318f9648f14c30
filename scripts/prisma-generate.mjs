#!/usr/bin/env node
// Runs `prisma generate` for both providers without network access.
// Prisma 7's CLI only checks that a schema-engine binary exists before generating; the binary is never run
// by `generate`, and its download fails offline, so any existing file satisfies the check.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = {
  ...process.env,
  PATH: `${root}node_modules/.bin:${process.env.PATH}`,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
for (const schema of ['prisma/schema.prisma', 'prisma/postgres/schema.prisma']) {
  const result = spawnSync(process.execPath, [`${root}node_modules/prisma/build/index.js`, 'generate', '--schema', schema], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
