#!/usr/bin/env -S node --max-semi-space-size=16
// Entry point of `npx milepost` and `npm start`: the code compiled into dist/ by `npm run build`,
// which runs on install and before `npm start`. A checkout that was never built falls back to the
// TypeScript sources through tsx (a development dependency), as `npm run dev` always does.
//
// Milepost runs on the Node.js its install brought (the `node` package: npm scripts and npx find it
// first on their PATH). Started by an older Node.js directly (a service unit naming /usr/bin/node, say),
// this hands over to that one instead: the SQLite driver needs Node.js 22 or newer.
//
// --max-semi-space-size=16 (the shebang, `npm start`, the bench): Node.js 22 and later size V8's young
// generation to the heap, up to 64 MB a semi-space; the server's peak resident memory was 395 MB with
// that and 282 MB with Node 20's 16 MB, for the same throughput within the noise. It can only be given
// at start.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MINIMUM_MAJOR = 22;
const major = Number(process.versions.node.split('.')[0]);
if (major < MINIMUM_MAJOR) {
  const bundled = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(bundled)) {
    console.error(
      `milepost: Node.js ${MINIMUM_MAJOR} or newer is needed (this is ${process.version}): run \`npm install\`, which brings it`,
    );
    process.exit(1);
  }
  const child = spawn(bundled, ['--max-semi-space-size=16', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
} else {
  const compiled = new URL('../dist/cli/main.js', import.meta.url);
  if (existsSync(compiled)) {
    await import(compiled.href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../src/cli/main.ts');
  }
}
