#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
// Compiles src/ into dist/ (tsconfig.build.json): it runs on install and before `npm start`. When no
// source (nor the TypeScript settings) changed since the last build, it does nothing: even an
// incremental tsc spends seconds reading the program to find that out. An install without the
// development dependencies (no TypeScript) keeps a dist/ that is already there.
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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
/** The newest modification time among the files under `path` (or of the file itself). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a file removed changes its directory
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(`${path}/${name}`));
  return latest;
}

const stamp = `${root}dist/.built`;
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((name) => `${root}${name}`).filter(existsSync);
const force = process.argv.includes('--force');
if (!force && existsSync(stamp) && existsSync(`${root}dist/cli/main.js`) && statSync(stamp).mtimeMs >= Math.max(...inputs.map(newest))) {
  process.exit(0);
}
const started = Date.now();
const result = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { cwd: root, stdio: 'inherit' });
// stamped with when the build began: a source saved during it is newer, and is built next time
if (result.status === 0) {
  writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
  utimesSync(stamp, started / 1000, started / 1000);
}
process.exit(result.status ?? 1);
