/**
 * What a run's verdicts depend on besides Crucible and the data: each toolchain's package set.
 *
 * A toolchain's version string ("Python 3.11.2") does not say what its programs can import or link: installing a
 * host package (`python3-tk` puts `_tkinter` into Python's lib-dynload, which the sandbox binds read-only) changed
 * verdicts between two otherwise identical runs. So every run records, per language it used:
 * - `debian`: the installed version of each Debian package of the language's `packages:` (`languages/*.yaml`), as
 *   `dpkg-query -W` reports it (null when it is not installed or dpkg is not there);
 * - for a Python language whose programs are scripts (`python`, `python-sci`), `python`: the number and a sha256 of
 *   the modules that interpreter finds inside the sandbox (`pkgutil.iter_modules()` over its `sys.path`, with the
 *   directory each comes from, the built-in module names, and the installed distributions with their versions),
 *   listed by a trusted script run through the judge like any program, so it sees what the candidates see;
 * - `sha256`: one hash over all of it, which `crucible compare` checks (`packageSetDifferences`).
 * Nothing here judges; a listing that fails is recorded as null with why, never guessed.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import type { Judge } from '../judge/judge.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Language } from '../languages/schema.js';
import { messageOf } from '../errors.js';

const run = promisify(execFile);

/** What the sandbox's Python finds to import: how many modules, and a sha256 of the listing. */
export interface PythonModules {
  readonly modules: number;
  readonly distributions: number;
  readonly sha256: string;
}

/** One language's package set (see the module comment). */
export interface ToolchainPackages {
  readonly debian: Readonly<Record<string, string | null>>;
  /** Python script languages only; null when the listing failed (`pythonError` says why). */
  readonly python?: PythonModules | null;
  readonly pythonError?: string;
  /** sha256 of `debian` and `python`, what `compare` checks first. */
  readonly sha256: string;
}

/** The listing the sandbox's Python prints: `module<TAB>directory`, `builtin<TAB>name`, `dist<TAB>name<TAB>version`. */
const PYTHON_LISTING = `import sys, pkgutil
seen = {}
for m in pkgutil.iter_modules():
    seen.setdefault(m.name, str(getattr(m.module_finder, "path", "")))
for name in sorted(seen):
    print("module\\t" + name + "\\t" + seen[name])
for name in sorted(sys.builtin_module_names):
    print("builtin\\t" + name)
try:
    import importlib.metadata as md
    dists = sorted((str(d.metadata["Name"]), str(d.version)) for d in md.distributions())
except Exception:
    dists = []
for name, version in dists:
    print("dist\\t" + name + "\\t" + version)
`;

/** Installed versions of Debian packages (null for one not installed; all null without dpkg). */
export async function debianVersions(packages: readonly string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = Object.fromEntries(packages.map((p) => [p, null]));
  if (packages.length === 0) return out;
  // dpkg-query exits 1 when some package is unknown but still prints the others.
  const stdout = await run('dpkg-query', ['-W', '-f=${Package}\\t${Version}\\t${db:Status-Status}\\n', ...packages])
    .then((r) => r.stdout, (error: { stdout?: string }) => error.stdout ?? '');
  for (const line of stdout.split('\n')) {
    const [name, version, status] = line.split('\t');
    if (name !== undefined && name in out && version !== undefined && version !== '' && status === 'installed') out[name] = version;
  }
  return out;
}

/** Whether a language runs its source as a Python script (`python3 ... /box/main.py`, not `-m pytest`). */
function isPythonScript(language: Language): boolean {
  const argv = language.run;
  return language.sourceFile.endsWith('.py') && /python/.test(argv[0] ?? '') && !argv.includes('-m')
    && argv[argv.length - 1] === `/box/${language.sourceFile}`;
}

/** The sandbox's Python listing for `language`, through the judge. */
async function pythonModules(judge: Judge, language: Language): Promise<{ python: PythonModules | null; pythonError?: string }> {
  try {
    const outcome = await judge.runPlain({ program: { language: language.id, source: PYTHON_LISTING }, stdin: '',
      limits: { cpuMs: 10_000, memoryKiB: 512 * 1024, outputBytes: 8 << 20 } });
    const r = outcome.run;
    if (r === null || r.status !== 'ok' || r.stdoutTruncated) {
      return { python: null, pythonError: `the listing did not run: ${r?.status ?? 'no run'} ${r?.reason ?? ''}`.trim() };
    }
    const lines = r.stdout.split('\n');
    return { python: { modules: lines.filter((l) => l.startsWith('module\t')).length,
      distributions: lines.filter((l) => l.startsWith('dist\t')).length,
      sha256: createHash('sha256').update(r.stdout).digest('hex') } };
  } catch (error) {
    return { python: null, pythonError: messageOf(error) };
  }
}

/**
 * The package set of each language in `used` (ids), by id, sorted.
 * @param judge runs the Python listing in its sandbox (a queue judge: on a worker of its fleet).
 */
export async function toolchainPackages(used: Iterable<string>, languages: LanguageRegistry, judge: Judge):
  Promise<Record<string, ToolchainPackages>> {
  const out: Record<string, ToolchainPackages> = {};
  for (const id of [...new Set(used)].sort()) {
    if (!languages.has(id)) continue;
    const language = languages.get(id);
    const debian = await debianVersions(language.packages);
    const python = isPythonScript(language) ? await pythonModules(judge, language) : undefined;
    const sha256 = createHash('sha256').update(JSON.stringify([debian, python?.python ?? null])).digest('hex');
    out[id] = { debian, ...(python ?? {}), sha256 };
  }
  return out;
}

/**
 * How two runs' package sets differ, one line per difference (empty when they agree, or when either run did not
 * record them: runs made before package sets were recorded). Only languages both runs used are compared.
 */
export function packageSetDifferences(a: unknown, b: unknown): string[] {
  const sets = (x: unknown): Record<string, ToolchainPackages> | undefined =>
    typeof x === 'object' && x !== null ? x as Record<string, ToolchainPackages> : undefined;
  const left = sets(a);
  const right = sets(b);
  if (left === undefined || right === undefined) return [];
  const out: string[] = [];
  for (const id of Object.keys(left).filter((k) => k in right).sort()) {
    const x = left[id]!;
    const y = right[id]!;
    if (x.sha256 === y.sha256) continue;
    const before = out.length;
    for (const name of [...new Set([...Object.keys(x.debian ?? {}), ...Object.keys(y.debian ?? {})])].sort()) {
      const va = x.debian?.[name] ?? null;
      const vb = y.debian?.[name] ?? null;
      if (va !== vb) out.push(`${id}: Debian package ${name} ${va ?? 'not installed'} in A, ${vb ?? 'not installed'} in B`);
    }
    const pa = x.python;
    const pb = y.python;
    if (pa !== undefined && pb !== undefined && (pa?.sha256 ?? null) !== (pb?.sha256 ?? null)) {
      out.push(`${id}: the sandbox's Python finds other modules (A: ${pa === null ? 'not listed' : `${pa.modules} modules, ${pa.distributions} distributions`}; `
        + `B: ${pb === null ? 'not listed' : `${pb.modules} modules, ${pb.distributions} distributions`})`);
    }
    if (out.length === before) out.push(`${id}: package sets differ (sha256 ${x.sha256.slice(0, 12)} in A, ${y.sha256.slice(0, 12)} in B)`);
  }
  return out;
}
