// The house as drawn in docs/ARCHITECTURE.md, checked on the sources themselves: data flows one way,
// from the HTTP edge down to the domain rules, and no two modules lean on each other.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Every module of src/ (but the generated clients) with the modules of src/ it imports, types included. */
function moduleGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'generated') walk(full);
      } else if (entry.name.endsWith('.ts')) {
        const imports = ts
          .preProcessFile(readFileSync(full, 'utf8'), true, true)
          .importedFiles.map((file) => file.fileName)
          .filter((name) => name.startsWith('.'))
          .map((name) => path.relative(SRC, path.resolve(path.dirname(full), name)))
          .filter((name) => !name.startsWith('generated'));
        graph.set(path.relative(SRC, full), imports);
      }
    }
  };
  walk(SRC);
  return graph;
}

/** The groups of modules that import one another, directly or round about (Tarjan's components). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * The functions of `source` longer than `limit` lines, as `name:line (lines)`. A function whose body is
 * only a data literal (a schema's fields, a table) is data, not steps, and is not counted.
 */
function longFunctions(file: string, source: string, limit: number): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (position: number) => tree.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node) => {
    const body = ts.isFunctionLike(node) ? (node as ts.FunctionLikeDeclaration).body : undefined;
    if (body) {
      let returned: ts.Node = body;
      while (ts.isParenthesizedExpression(returned)) returned = returned.expression;
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      if (lines > limit && !ts.isObjectLiteralExpression(returned) && !ts.isArrayLiteralExpression(returned)) {
        const named = (node as ts.FunctionDeclaration).name ?? (node.parent as ts.VariableDeclaration).name;
        found.push(`${file}:${lineOf(node.getStart())} ${named?.getText() ?? '(anonymous)'} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** The most lines a function of src/ may take: past it, a newcomer reads steps that want names of their own. */
const FUNCTION_LINES = 80;

const graph = moduleGraph();
const top = (module: string) => module.split(path.sep)[0]!;

/**
 * The floors of the house, from the top down: a module may import modules of its own floor and of the
 * floors below it, never above. docs/ARCHITECTURE.md says what each floor holds. A top-level folder of
 * src/ (or file) missing here fails the test, so that a new one is placed on purpose.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['cli'],
  ['app'],
  ['federation'],
  ['oauth'],
  ['account'],
  ['web'],
  ['pages'],
  ['rest'],
  ['cache'],
  ['http'],
  ['graphql'],
  ['seed', 'imports', 'mail', 'webhooks'],
  ['db'],
  ['auth', 'tracks', 'media', 'events'],
  ['operations', 'domain', 'types'],
  ['config', 'log'],
];

const floorOf = (module: string): number => FLOORS.findIndex((floor) => floor.includes(top(module).replace(/\.ts$/, '')));

/** Every import that leads from a floor up to one above it. */
function arrowsUp(modules: Map<string, string[]>): string[] {
  return [...modules].flatMap(([module, imports]) =>
    imports.filter((name) => floorOf(name) < floorOf(module)).map((name) => `${module} → ${name}`),
  );
}

describe('the module graph', () => {
  it('reads every module', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join('db', 'entry-pages.ts'))).toContain(path.join('db', 'entry-rows.ts'));
  });

  it('has no cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const looped = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(looped)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('places every folder of src/ on a floor', () => {
    expect([...graph.keys()].filter((module) => floorOf(module) === -1)).toEqual([]);
  });

  it('never leads from a floor back up to one above it', () => {
    expect(arrowsUp(graph)).toEqual([]);
  });

  it('finds an arrow back up when there is one', () => {
    const drawn = new Map([
      [path.join('db', 'entries.ts'), [path.join('domain', 'geo.ts')]],
      [path.join('http', 'metrics.ts'), [path.join('cache', 'response-cache.ts'), path.join('graphql', 'context.ts')]],
      [path.join('auth', 'tokens.ts'), [path.join('db', 'database.ts')]],
    ]);
    expect(arrowsUp(drawn)).toEqual([
      `${path.join('http', 'metrics.ts')} → ${path.join('cache', 'response-cache.ts')}`,
      `${path.join('auth', 'tokens.ts')} → ${path.join('db', 'database.ts')}`,
    ]);
  });

  it('has no function over 80 lines', () => {
    const long = [...graph.keys()]
      .filter((module) => !module.endsWith('.d.ts'))
      .flatMap((module) => longFunctions(module, readFileSync(path.join(SRC, module), 'utf8'), FUNCTION_LINES));
    expect(long).toEqual([]);
  });

  it('finds a long function, and leaves a long data literal alone', () => {
    const steps = Array.from({ length: 81 }, (_, i) => `  step(${i});`).join('\n');
    const rows = Array.from({ length: 90 }, (_, i) => `  row${i}: ${i},`).join('\n');
    const source = `function long() {\n${steps}\n}\nconst table = () => ({\n${rows}\n});\nconst short = () => 1;\n`;
    expect(longFunctions('a.ts', source, FUNCTION_LINES)).toEqual(['a.ts:1 long (83 lines)']);
  });

  it('keeps the domain rules pure: domain/ imports only domain/', () => {
    const impure = [...graph]
      .filter(([module]) => top(module) === 'domain')
      .flatMap(([module, imports]) => imports.filter((name) => top(name) !== 'domain').map((name) => `${module} → ${name}`));
    expect(impure).toEqual([]);
  });
});
