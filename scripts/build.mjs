#!/usr/bin/env node
// Compiles src/ into dist/ (tsconfig.build.json), incrementally: it runs on install and before
// `npm start`, and takes a second when nothing changed. An install without the development
// dependencies (no TypeScript) keeps a dist/ that is already there.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = `${root}node_modules/typescript/bin/tsc`;
if (!existsSync(tsc)) {
  if (existsSync(`${root}dist/cli/main.js`)) process.exit(0);
  console.error(
    'milepost: TypeScript is not installed and there is no dist/: run `npm install` (with development dependencies), then `npm run build`',
  );
  process.exit(1);
}
const result = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
