/** Small shared parsers for CLI options; each failure is a `UsageError` naming the option. */
import { existsSync, readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { CALIBRATED_TIME_DEFAULTS, calibrationProblem, LIMIT_RANGES, mibToKiB, outOfRange, secondsToMs, type CalibratedTimeLimit } from '../limits.js';
import { TENANT_PATTERN } from '../judge/judge.js';
import { LEAN_ENDPOINT_ENV } from '../kinds/proof/lean/remote.js';
import { UsageError } from './errors.js';

/** Parse a positive finite number (commander option parser). */
export function parsePositiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}

/**
 * Parse a time limit given in seconds (commander option parser) and check it against `LIMIT_RANGES.cpuMs`;
 * returns seconds (convert with `secondsToMs` where it is used).
 */
export function parseTimeLimitSeconds(value: string): number {
  const seconds = parsePositiveNumber(value);
  const problem = outOfRange(secondsToMs(seconds), LIMIT_RANGES.cpuMs, 'ms', 'seconds', `${value} s`);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return seconds;
}

/**
 * Parse `--time-limit-rule` (commander option parser): `fixed` (null: every program gets `--time-limit`),
 * `calibrated` (`CALIBRATED_TIME_DEFAULTS`), or `FACTORx+FLOORms` such as `4x+100ms` (`calibratedCpuMs`,
 * `src/limits.ts`), checked against `calibrationProblem`.
 */
export function parseTimeLimitRule(value: string): CalibratedTimeLimit | null {
  if (value === 'fixed') return null;
  if (value === 'calibrated') return CALIBRATED_TIME_DEFAULTS;
  const match = /^(\d+(?:\.\d+)?)x\+(\d+)ms$/.exec(value);
  if (match === null) throw new InvalidArgumentError(`expected fixed, calibrated or FACTORx+FLOORms (e.g. 4x+100ms), got "${value}"`);
  const rule = { factor: Number(match[1]), floorMs: Number(match[2]) };
  const problem = calibrationProblem(rule);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return rule;
}

/** The text of a time-limit rule as `parseTimeLimitRule` reads it (`fixed` or `FACTORx+FLOORms`). */
export function timeLimitRuleText(rule: CalibratedTimeLimit | null): string {
  return rule === null ? 'fixed' : `${rule.factor}x+${rule.floorMs}ms`;
}

/**
 * Parse a memory limit given in MiB (commander option parser) and check it against `LIMIT_RANGES.memoryKiB`;
 * returns MiB (convert with `mibToKiB` where it is used).
 */
export function parseMemoryLimitMiB(value: string): number {
  const mib = parsePositiveNumber(value);
  const problem = outOfRange(mibToKiB(mib), LIMIT_RANGES.memoryKiB, 'KiB', 'MiB', `${value} MiB`);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return mib;
}

/** Parse a positive integer (commander option parser). */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

/** Parse a comma-separated list of positive integers, e.g. "1,10,100". */
export function parseIntList(value: string): number[] {
  const parts = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (parts.length === 0) throw new InvalidArgumentError('expected a comma-separated list of integers');
  return parts.map((p) => parsePositiveInt(p));
}

/** Read a text file given on the command line. @throws UsageError naming the option when unreadable. */
export function readInputFile(path: string, what: string): string {
  if (!existsSync(path)) throw new UsageError(`${what}: file not found: ${path}`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${what}: cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Commander parser of a tenant name (`--tenant`, `TENANT_PATTERN`). */
export function parseTenant(value: string): string {
  if (!TENANT_PATTERN.test(value)) throw new InvalidArgumentError(`expected 1-100 letters, digits and . : @ / - _, got "${value}"`);
  return value;
}

/** Help of `--cache-dir`, shared by every command that judges (the ground-truth cache, `src/paths.ts`). */
export const CACHE_DIR_HELP = 'ground-truth cache (default: $CRUCIBLE_CACHE_DIR, $XDG_CACHE_HOME/crucible or ~/.cache/crucible)';

/** Help of `--unsafe-no-sandbox`, shared by every command that runs programs. */
export const UNSAFE_NO_SANDBOX_HELP = 'run without isolation if the host has none (dangerous)';

/** `--lean-endpoint`'s help text (eval, serve). */
export const LEAN_ENDPOINT_HELP = `Lean 4 proofs: base URL of the kimina-lean-server-compatible endpoint that checks them (POST <url>/verify; default $${LEAN_ENDPOINT_ENV}; without it Lean problems are internal_error)`;

/** `--lean-endpoint URL`: an http(s) URL. @throws InvalidArgumentError otherwise. */
export function parseLeanEndpoint(value: string): string {
  if (!/^https?:\/\/\S+$/.test(value)) throw new InvalidArgumentError(`not an http(s) URL: "${value}"`);
  return value;
}

/**
 * Make `--lean-endpoint` the process's Lean endpoint: the proof kind reads `CRUCIBLE_LEAN_ENDPOINT` when it plans a
 * Lean check (`src/kinds/proof/lean/remote.ts`), so the setting reaches every judge of this process.
 */
export function applyLeanEndpoint(url: string | undefined): void {
  if (url !== undefined) process.env[LEAN_ENDPOINT_ENV] = url;
}
