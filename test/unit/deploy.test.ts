// The recipes an operator deploys from (Dockerfile, compose.yaml, deploy/milepost.service) are read
// here as Docker, Compose and systemd would read them, and held to what README.md and
// docs/OPERATIONS.md say: the same install and start commands, the Node.js the install brings, the
// settings the server reads, and the probes it answers. No container runtime runs in CI, so nothing
// here builds the image: a recipe that names a command the project does not have, or a setting the
// server does not read, fails.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const packageJson = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; scripts: Record<string, string> };

interface Instruction {
  keyword: string;
  args: string;
}

/** A Dockerfile's instructions, with continued lines joined and comments left out. */
function instructions(dockerfile: string): Instruction[] {
  return dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** The settings docs/OPERATIONS.md documents (its configuration table's first column). */
const documentedSettings = new Set([...read('docs/OPERATIONS.md').matchAll(/^\| `([A-Z_]+)`/gm)].map((match) => match[1]!));

describe('the container image recipe (Dockerfile)', () => {
  const steps = instructions(read('Dockerfile'));
  const of = (keyword: string) => steps.filter((step) => step.keyword === keyword);

  it('builds on the Node.js major the install brings (the node package)', () => {
    const major = packageJson.dependencies.node!.split('.')[0];
    const bases = of('FROM').map((step) => step.args.split(/\s+/)[0]);
    expect(bases.length).toBeGreaterThan(0);
    for (const base of bases) expect(base).toMatch(new RegExp(`^node:${major}(-|$)`));
  });

  it('installs as CI does, from the lockfile, and starts with npm start as the README says', () => {
    expect(of('RUN').some((step) => /\bnpm ci\b/.test(step.args))).toBe(true);
    const [command] = of('CMD');
    expect(JSON.parse(command!.args).slice(0, 2)).toEqual(['npm', 'start']);
    expect(read('README.md')).toContain('npm start');
    expect(packageJson.scripts.start).toContain('bin/milepost.js serve');
  });

  it('sets only settings the server reads, listens where it says, and probes /healthz', () => {
    const settings = of('ENV').flatMap((step) => [...step.args.matchAll(/([A-Z_]+)=/g)].map((match) => match[1]!));
    const ours = settings.filter((name) => !['NODE_ENV', 'MALLOC_ARENA_MAX', 'NPM_CONFIG_UPDATE_NOTIFIER'].includes(name));
    expect(ours.filter((name) => !documentedSettings.has(name))).toEqual([]);
    const port = /PORT=(\d+)/.exec(
      of('ENV')
        .map((step) => step.args)
        .join(' '),
    )?.[1];
    expect(of('EXPOSE').map((step) => step.args)).toEqual([port]);
    expect(of('HEALTHCHECK')[0]?.args).toContain(`127.0.0.1:${port}/healthz`);
    expect(of('USER').map((step) => step.args)).toEqual(['node']);
  });

  it('leaves what a clone holds but the image must not out of its build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'data', '.git', 'dist']) expect(ignored).toContain(entry);
  });
});

describe('the compose file (compose.yaml)', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<
      string,
      { build?: string; image?: string; environment?: Record<string, string>; depends_on?: Record<string, unknown> }
    >;
  };
  const milepost = compose.services.milepost!;

  it('builds Milepost from the Dockerfile beside PostgreSQL and Redis, which it waits for', () => {
    expect(milepost.build).toBe('.');
    expect(Object.keys(compose.services).sort()).toEqual(['milepost', 'postgres', 'redis']);
    expect(milepost.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
  });

  it('points the server at them with the settings docs/OPERATIONS.md documents', () => {
    const environment = milepost.environment!;
    expect(Object.keys(environment).filter((name) => !documentedSettings.has(name))).toEqual([]);
    expect(environment.DATABASE_URL).toMatch(/^postgresql:\/\/[^@]+@postgres:5432\//);
    expect(environment.REDIS_URL).toBe('redis://redis:6379');
    // a production server needs its own secret: compose refuses to start without one
    expect(environment.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?/);
  });
});

describe('the systemd unit (deploy/milepost.service)', () => {
  const unit = read('deploy/milepost.service');
  const values = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => match[1]!);

  it('runs what npm start runs, on the Node.js the install brought, in production', () => {
    const [start] = values('ExecStart');
    expect(start).toMatch(/node_modules\/\.bin\/node --max-semi-space-size=16 \S+\/bin\/milepost\.js serve\b/);
    expect(packageJson.scripts.start).toContain('--max-semi-space-size=16');
    expect(values('Environment').join(' ')).toContain('NODE_ENV=production');
    expect(values('KillSignal')).toEqual(['SIGTERM']);
  });

  it('sets only settings the server reads', () => {
    const settings = values('Environment').flatMap((line) => [...line.matchAll(/([A-Z_]+)=/g)].map((match) => match[1]!));
    expect(settings.filter((name) => !['NODE_ENV', 'MALLOC_ARENA_MAX'].includes(name) && !documentedSettings.has(name))).toEqual([]);
  });
});
