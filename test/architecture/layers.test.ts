/**
 * The house's map, checked: every import of every `src/**\/*.ts` file (values and `import type` alike, read with
 * TypeScript's own import scanner, so comments and strings never count) must point down the layer order below,
 * and no two folders may import each other, at any depth (`src/kinds/script/multipl-e` and `humaneval-x` as much
 * as `src/engine` and `src/judge`). A top-level folder or file of `src/` that is not in `LAYERS` fails too: a new
 * room is placed on purpose. The same order, with what each layer holds, is in docs/ARCHITECTURE.md.
 *
 * Pure and fast: reads source files, runs nothing.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';

/**
 * The layer order of `src/`, lowest first. A module may import only from its own top-level unit or from a unit in
 * a LOWER layer; units that share a layer are independent of each other. Units are the top-level folders of `src/`
 * and its top-level files (`limits.ts`).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['sandbox'], // one command in one box, limits from outside; session boxes
  ['paths.ts', 'errors.ts', 'verdict'], // project paths, error text, the verdict vocabulary
  ['version.ts', 'languages'], // package version; languages/*.yaml
  ['limits.ts'], // limits with one home
  ['extract', 'formats'], // code out of responses; problem and sample readers
  ['judge', 'analysis'], // the seam: Judge, plans, mode contract, submissions, harness protocol; static analysers
  ['kinds'], // one folder per problem kind, and the built-in registry
  ['engine', 'sessions', 'environments'], // runs plans on this machine; multi-turn sessions; prepared environments
  ['queue', 'reward', 'metrics'], // a Judge on a fleet; rewards; pass@k and statistics
  ['store'], // run directories and the result store
  ['report', 'generate'], // md/html reports; samples from a model endpoint (crucible generate)
  ['apps', 'dashboard'], // libraries front ends call (evaluate, rerank, debug-loop); the web dashboard
  ['server'], // HTTP API, compatibility routes, MCP
  ['cli'], // the command line
];

/** An import between two modules of `src/`, as paths relative to the project root (`src/judge/plan.ts`). */
interface Edge {
  readonly from: string;
  readonly to: string;
}

/** Every `.ts` file under `dir`, relative to `root`, with `/` separators. */
function sourceFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) found.push(...sourceFiles(root, path));
    else if (name.endsWith('.ts')) found.push(path.split(sep).join('/'));
  }
  return found;
}

/** The relative imports of every `src/` file (`./x.js` resolved to `src/.../x.ts`); packages and `node:` are not ours. */
function srcImports(root: string): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(root, 'src')) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = normalize(join(dirname(file), fileName)).split(sep).join('/').replace(/\.js$/, '.ts');
      edges.push({ from: file, to });
    }
  }
  return edges;
}

/** The top-level unit of a `src/` path: its folder, or the file itself for a file directly in `src/`. */
function topUnit(path: string): string {
  return path.split('/')[1]!;
}

/** Imports that go up (or sideways, within one layer) the order, and units that no layer places, as messages. */
function layerViolations(edges: readonly Edge[], layers: readonly (readonly string[])[]): string[] {
  const layerOf = new Map<string, number>();
  layers.forEach((units, i) => units.forEach((u) => layerOf.set(u, i)));
  const problems = new Set<string>();
  for (const { from, to } of edges) {
    const [a, b] = [topUnit(from), topUnit(to)];
    for (const unit of [a, b]) if (!layerOf.has(unit)) problems.add(`src/${unit} is in no layer: place it in LAYERS and docs/ARCHITECTURE.md`);
    if (a === b || !layerOf.has(a) || !layerOf.has(b)) continue;
    if (layerOf.get(b)! >= layerOf.get(a)!) {
      problems.add(`${from} imports ${to}: ${b} is not below ${a} (layers ${layerOf.get(b)} >= ${layerOf.get(a)})`);
    }
  }
  return [...problems].sort();
}

/** Strongly connected components of a directed graph (Tarjan), each as a sorted list of its nodes. */
function stronglyConnected(nodes: readonly string[], next: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return components;
}

/**
 * Folder cycles at every depth: for each directory, its children (sub-folders and files) are the nodes and an
 * import between two modules under different children is an edge; a cycle that passes through a sub-folder is a
 * folder cycle (a cycle of files alone is a module cycle, not this check's business). As messages.
 */
function folderCycles(edges: readonly Edge[]): string[] {
  const directories = new Set<string>();
  for (const { from } of edges) {
    for (let d = dirname(from); d !== '.' && d !== ''; d = dirname(d)) directories.add(d);
  }
  const cycles: string[] = [];
  for (const dir of [...directories].sort()) {
    const childOf = (path: string): string | undefined => (path.startsWith(`${dir}/`) ? path.slice(dir.length + 1).split('/')[0] : undefined);
    const isFolder = (child: string): boolean => edges.some(({ from, to }) => from.startsWith(`${dir}/${child}/`) || to.startsWith(`${dir}/${child}/`));
    const next = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const [a, b] = [childOf(from), childOf(to)];
      if (a === undefined || b === undefined || a === b) continue;
      if (!next.has(a)) next.set(a, new Set());
      next.get(a)!.add(b);
    }
    for (const component of stronglyConnected([...next.keys()].sort(), next)) {
      if (component.length > 1 && component.some(isFolder)) cycles.push(`${dir}: ${component.join(' <-> ')}`);
    }
  }
  return cycles;
}

describe('architecture: layers and folders of src/', () => {
  const edges = srcImports(PROJECT_ROOT);

  it('reads the imports of every source file', () => {
    assert.ok(edges.length > 500, `only ${edges.length} imports found under ${relative(process.cwd(), join(PROJECT_ROOT, 'src'))}`);
    assert.ok(edges.some((e) => e.from === 'src/kinds/index.ts' && e.to === 'src/judge/registry.ts'));
  });

  it('places every top-level unit of src/ in one layer', () => {
    const placed = LAYERS.flat();
    assert.equal(new Set(placed).size, placed.length, 'a unit is in two layers');
    const units = readdirSync(join(PROJECT_ROOT, 'src')).filter((n) => n.endsWith('.ts') || statSync(join(PROJECT_ROOT, 'src', n)).isDirectory());
    assert.deepEqual(units.filter((u) => !placed.includes(u)), [], 'units of src/ missing from LAYERS');
    assert.deepEqual(placed.filter((u) => !units.includes(u)), [], 'LAYERS names units src/ does not have');
  });

  it('has no import up the layer order (import type included)', () => {
    assert.deepEqual(layerViolations(edges, LAYERS), []);
  });

  it('has no folder cycle at any depth', () => {
    assert.deepEqual(folderCycles(edges), []);
  });

  it('would catch an upward import, a sideways one, an unplaced unit and a folder cycle', () => {
    const toy: Edge[] = [
      { from: 'src/judge/plan.ts', to: 'src/engine/box.ts' },
      { from: 'src/engine/a.ts', to: 'src/sessions/b.ts' },
      { from: 'src/attic/x.ts', to: 'src/verdict/index.ts' },
      { from: 'src/kinds/script/multipl-e/lua.ts', to: 'src/kinds/script/humaneval-x/one-program.ts' },
      { from: 'src/kinds/script/humaneval-x/go.ts', to: 'src/kinds/script/multipl-e/go.ts' },
      { from: 'src/engine/contest/box.ts', to: 'src/engine/contest/package-job.ts' },
      { from: 'src/engine/contest/package-job.ts', to: 'src/engine/contest/box.ts' },
    ];
    assert.deepEqual(layerViolations(toy, LAYERS), [
      'src/attic is in no layer: place it in LAYERS and docs/ARCHITECTURE.md',
      'src/engine/a.ts imports src/sessions/b.ts: sessions is not below engine (layers 7 >= 7)',
      'src/judge/plan.ts imports src/engine/box.ts: engine is not below judge (layers 7 >= 5)',
    ]);
    assert.deepEqual(folderCycles(toy), ['src/kinds/script: humaneval-x <-> multipl-e']);
  });
});
