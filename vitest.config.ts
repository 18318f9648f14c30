// Two projects: `unit` (pure modules, once) and the database-backed suite, run once per database.
// The PostgreSQL run needs TEST_POSTGRES_URL (.ci/run sets it); without it, it is skipped with a reason.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

const postgresUrl = process.env.TEST_POSTGRES_URL;
// the config is evaluated once per project: say it once
if (!postgresUrl && !process.env.MILEPOST_SKIP_REPORTED) {
  process.env.MILEPOST_SKIP_REPORTED = '1';
  console.log('[milepost] TEST_POSTGRES_URL is not set: the PostgreSQL run of test/db is skipped.');
}

// `extends: true`: each project inherits the root's resolve settings
const databaseProject = (name: 'sqlite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: ['test/db/**/*.test.ts'],
    env: { MILEPOST_TEST_DB: name },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for the libraries (Pothos, yoga); vite would give our own
    // modules the ESM build, and graphql refuses types from "another realm". One build for all.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    // at least two test files at a time: vitest's default is one fewer than the cores (one, on two), and
    // most of a file's time is spent waiting (PostgreSQL, a browser, a child process), not computing. On
    // the 2-core CI machine the suite took 768 s one file at a time, 519 s two at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000 } },
      databaseProject('sqlite'),
      ...(postgresUrl ? [databaseProject('postgres')] : []),
    ],
  },
});
