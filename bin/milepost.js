#!/usr/bin/env node
// Entry point of `npx milepost` and `npm start`: the code compiled into dist/ by `npm run build`,
// which runs on install and before `npm start`. A checkout that was never built falls back to the
// TypeScript sources through tsx (a development dependency), as `npm run dev` always does.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
