/**
 * Load and validate every `languages/*.yaml`, index them by id and alias, and detect toolchains.
 * A malformed file is reported with its path, the line of the offending field and the field's name.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseDocument, type Node as YamlNode } from 'yaml';
import { LANGUAGES_DIR } from '../paths.js';
import { languageSchema, type Language } from './schema.js';

/** Thrown for an unreadable or invalid language file; the message names file, line and field. */
export class LanguageFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LanguageFileError';
  }
}

/** Thrown when `--lang` names no configured language. */
export class UnknownLanguageError extends Error {
  constructor(readonly requested: string, readonly known: readonly string[]) {
    super(`unknown language "${requested}"; configured: ${known.join(', ')}`);
    this.name = 'UnknownLanguageError';
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function nodeAt(root: YamlNode | null, path: readonly (string | number)[]): YamlNode | null {
  let node: YamlNode | null = root;
  for (const key of path) {
    if (node === null || !('get' in node) || typeof (node as { get: unknown }).get !== 'function') return node;
    const next = (node as unknown as { get(k: unknown, keepScalar: boolean): unknown }).get(key, true);
    if (next === undefined || next === null || typeof next !== 'object') return node;
    node = next as YamlNode;
  }
  return node;
}

/** Parse and validate one language file. @throws LanguageFileError naming file:line and field. */
export function parseLanguageFile(path: string, text: string): Language {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    throw new LanguageFileError(`${path}:${lineOf(text, first.pos[0])}: YAML syntax error: ${first.message}`);
  }
  if (!isMap(doc.contents)) throw new LanguageFileError(`${path}:1: expected a mapping of language fields`);
  const parsed = languageSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const node = nodeAt(doc.contents, issue.path);
    const offset = node && node.range ? node.range[0] : 0;
    const field = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    throw new LanguageFileError(`${path}:${lineOf(text, offset)}: field "${field}": ${issue.message}`);
  }
  return parsed.data;
}

/** Availability of one toolchain on this host. */
export interface ToolchainStatus {
  readonly id: string;
  readonly available: boolean;
  /** First line of the version command's output, or null. */
  readonly version: string | null;
  /** Why it is unavailable (missing binary, failing version command), with the Debian packages to install. */
  readonly problem: string | null;
}

/** The configured languages, by id and alias. */
export class LanguageRegistry {
  private readonly byName = new Map<string, Language>();
  private readonly versionCache = new Map<string, Promise<ToolchainStatus>>();

  /**
   * `support`: contents of the files of `languages/support/` that compile steps include (`compile.include`),
   * by file name; every included name must be present.
   * @throws LanguageFileError for a name used twice or an included file that is missing
   */
  constructor(readonly languages: readonly Language[], private readonly support: ReadonlyMap<string, string> = new Map()) {
    for (const language of languages) {
      for (const name of language.compile?.include ?? []) {
        if (!support.has(name)) throw new LanguageFileError(`language ${language.id}: compile.include: languages/support/${name} not found`);
      }
    }
    for (const language of languages) {
      for (const name of [language.id, ...language.aliases]) {
        const key = name.toLowerCase();
        const taken = this.byName.get(key);
        if (taken && taken.id !== language.id) {
          throw new LanguageFileError(`language name "${name}" is used by both ${taken.id} and ${language.id}`);
        }
        this.byName.set(key, language);
      }
    }
  }

  /** Load every `*.yaml` of a directory (default: the project's `languages/`). */
  static load(dir: string = LANGUAGES_DIR): LanguageRegistry {
    if (!existsSync(dir)) throw new LanguageFileError(`${dir}: language directory not found`);
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort();
    const languages = files.map((f) => parseLanguageFile(join(dir, f), readFileSync(join(dir, f), 'utf8')));
    const support = new Map<string, string>();
    for (const name of new Set(languages.flatMap((l) => l.compile?.include ?? []))) {
      const path = join(dir, 'support', name);
      if (existsSync(path)) support.set(name, readFileSync(path, 'utf8'));
    }
    return new LanguageRegistry(languages, support);
  }

  /**
   * The fence tags that name `language` in a model's response (the tag after ```): its id, aliases and `fenceTags`,
   * lower-cased (tags are matched case-insensitively).
   */
  fenceTags(language: Language): ReadonlySet<string> {
    return new Set([language.id, ...language.aliases, ...language.fenceTags].map((t) => t.toLowerCase()));
  }

  /** Files written next to the source in the compile box of `language`: its `compile.include`, name -> contents. */
  compileFiles(language: Language): Record<string, string> {
    return Object.fromEntries((language.compile?.include ?? []).map((name) => [name, this.support.get(name) ?? '']));
  }

  /** Find a language by id or alias (case-insensitive). @throws UnknownLanguageError */
  get(name: string): Language {
    const language = this.byName.get(name.toLowerCase());
    if (!language) throw new UnknownLanguageError(name, this.languages.map((l) => l.id));
    return language;
  }

  /** Whether a name is configured. */
  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  /** Detect each toolchain's version by running its version command on the host (cached per language). */
  toolchains(): Promise<readonly ToolchainStatus[]> {
    return Promise.all(this.languages.map((l) => this.toolchain(l.id)));
  }

  /**
   * Detect one language's toolchain (by id or alias) by running its version command on the host, cached: a caller
   * that needs a few languages (an eval records the toolchains it used) does not start all ~60 version commands
   * (~1.8 s of CPU and seconds of wall time on a loaded 2-core host). @throws UnknownLanguageError
   */
  toolchain(name: string): Promise<ToolchainStatus> {
    const language = this.get(name);
    let status = this.versionCache.get(language.id);
    if (status === undefined) {
      status = detectToolchain(language);
      this.versionCache.set(language.id, status);
    }
    return status;
  }
}

/**
 * Host files of the toolchain that are absent: the binaries of `version`, `run` and `compile` (those under
 * /usr) and the `readOnlyPaths` (of the runs and of the compile step). Empty when the Debian packages are installed. Warm-start files are not counted.
 */
export function missingToolchainFiles(language: Language): string[] {
  const needed = [language.version[0]!, language.run[0]!, ...(language.compile ? [language.compile.argv[0]!] : [])]
    .filter((p) => p.startsWith('/usr/'));
  return [...needed, ...language.readOnlyPaths, ...language.compile?.readOnlyPaths ?? []].filter((p) => !existsSync(p));
}

/** Run a language's version command (a trusted toolchain binary) and report availability. */
export function detectToolchain(language: Language): Promise<ToolchainStatus> {
  const missing = missingToolchainFiles(language);
  if (missing.length > 0) {
    return Promise.resolve({ id: language.id, available: false, version: null,
      problem: `missing ${missing.join(', ')} (apt-get install ${language.packages.join(' ')})` });
  }
  const unprepared = language.prepare.map((step) => step.creates).filter((p) => !existsSync(p));
  if (unprepared.length > 0) {
    return Promise.resolve({ id: language.id, available: false, version: null,
      problem: `missing warm-start file ${unprepared.join(', ')} (run scripts/setup or crucible languages --prepare)` });
  }
  return new Promise((resolve) => {
    // A generous timeout: all languages are asked at once, and a loaded host must not make a toolchain look missing.
    execFile(language.version[0]!, language.version.slice(1), { timeout: 60_000 }, (error, stdout, stderr) => {
      const text = `${stdout}\n${stderr}`.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? null;
      if (error) {
        resolve({ id: language.id, available: false, version: text,
          problem: `version command failed: ${error.message.split('\n')[0]} (apt-get install ${language.packages.join(' ')})` });
      } else {
        resolve({ id: language.id, available: true, version: text, problem: null });
      }
    });
  });
}
