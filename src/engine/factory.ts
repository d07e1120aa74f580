/**
 * The one factory of judges. Every front end (`crucible eval`, `rerank`, `run`, `serve`, benchmarks) makes its
 * judge here and uses it through the `Judge` interface (`src/judge/judge.ts`). Today there is one kind, the
 * `LocalJudge` on this machine's sandbox; a judge backed by a queue of workers on other machines is another
 * branch of `createJudge`, with the same options where they apply.
 */
import type { EnvironmentProvider } from '../judge/environment.js';
import type { SqlEngine } from '../judge/sql-engine.js';
import type { Judge } from '../judge/judge.js';
import { defaultModes, type ModeRegistry } from '../kinds/index.js';
import { LanguageRegistry } from '../languages/registry.js';
import { calibrationProblem, definedOnly, JUDGE_DEFAULTS, type CalibratedTimeLimit, type JudgeLimits } from '../limits.js';
import { defaultCacheDir } from '../paths.js';
import { Sandbox } from '../sandbox/index.js';
import { GroundTruthCache } from './ground-truth.js';
import { LocalJudge } from './local-judge.js';

/** How to make a judge. Every field is optional. */
export interface JudgeOptions {
  /** Use this sandbox (its owner closes it). Default: make one from the fields below, closed by the judge. */
  readonly sandbox?: Sandbox;
  /** One-shot slots of a sandbox the judge makes (default: the number of cores). */
  readonly slots?: number;
  /** Warm Python harness boxes of a sandbox the judge makes (default: slots + 1). */
  readonly boxSlots?: number;
  /** Run without isolation if the host has none (dangerous; never the default). */
  readonly unsafeNoSandbox?: boolean;
  readonly languages?: LanguageRegistry;
  /** Judging modes (default: the built-in kinds; add one with `defaultModes().with(mode)`). */
  readonly modes?: ModeRegistry;
  /** Limits of requests that set none (default `JUDGE_DEFAULTS`). */
  readonly limits?: Partial<JudgeLimits>;
  /**
   * Directory of the ground-truth cache (default `defaultCacheDir()`: `$CRUCIBLE_CACHE_DIR`,
   * `$XDG_CACHE_HOME/crucible` or `~/.cache/crucible`); null keeps ground truth in memory only.
   */
  readonly cacheDir?: string | null;
  /**
   * Providers of prepared environments (`src/judge/environment.ts`: repositories for the `repository` kind), made
   * on the judge's sandbox (their preparation runs in it); default none, so plans with a workspace are `internal_error`.
   */
  readonly environments?: (sandbox: Sandbox) => readonly EnvironmentProvider[];
  /**
   * SQL servers for `sql_engine` plans (`src/judge/sql-engine.ts`: PostgreSQL for `sql` problems with
   * `engine: "postgres"`, `src/environments/postgres/`); default none, so such problems are `internal_error`.
   */
  readonly sqlEngines?: readonly SqlEngine[];
  /**
   * Calibrated time limits (`src/limits.ts`, `calibratedCpuMs`): a problem whose reference solution is measured
   * (HumanEval's canonical solution) gets min(limit, factor × its CPU time + floor). Default
   * `CALIBRATED_TIME_DEFAULTS` (4×, 200 ms); null judges every program under the fixed limit.
   */
  readonly calibration?: CalibratedTimeLimit | null;
}

/**
 * Make a judge.
 * @throws IsolationUnavailableError when it must make a sandbox and the host cannot isolate programs (and
 *   `unsafeNoSandbox` is not set); LanguageFileError for a broken language file; RangeError for a calibration out
 *   of range (`calibrationProblem`).
 */
export function createJudge(options: JudgeOptions = {}): Judge {
  const languages = options.languages ?? LanguageRegistry.load();
  const limits: JudgeLimits = { ...JUDGE_DEFAULTS, ...definedOnly(options.limits ?? {}) };
  const calibrationError = options.calibration === undefined || options.calibration === null ? null : calibrationProblem(options.calibration);
  if (calibrationError !== null) throw new RangeError(calibrationError);
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const sandbox = options.sandbox ?? Sandbox.create({
    ...(options.slots === undefined ? {} : { slots: options.slots }),
    ...(options.boxSlots === undefined ? {} : { boxSlots: options.boxSlots }),
    unsafeNoSandbox: options.unsafeNoSandbox === true,
  });
  const environments = new Map((options.environments?.(sandbox) ?? []).map((provider) => [provider.name, provider]));
  return new LocalJudge(sandbox, {
    languages, modes: options.modes ?? defaultModes(), limits,
    groundTruth: cacheDir === null ? null : new GroundTruthCache(cacheDir), ownsSandbox: options.sandbox === undefined,
    environments, sqlEngines: new Map((options.sqlEngines ?? []).map((engine) => [engine.name, engine])),
    ...(options.calibration === undefined ? {} : { calibration: options.calibration }),
  });
}
