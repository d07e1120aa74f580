/**
 * Prepared environments, as the seam sees them: a plan names one as data (`EnvironmentRef`, in a plan's
 * `workspace`, `./plan.ts`), and the engine asks the `EnvironmentProvider` of that name for its prepared
 * directories before the runs. A provider prepares an environment once (a repository's base commit checked out,
 * its dependencies installed) and hands the same directories to every later run; the sandbox mounts them into each
 * box copy-on-write or read-only (`WorkspaceMount`, `src/sandbox/types.ts`). Providers are made above the engine
 * (`src/environments/`) and handed to it (`createJudge({environments})`), so modes stay pure and the engine knows
 * no kind of environment.
 */

/** Which prepared environment: the provider's name and its description (plain JSON the provider validates). */
export interface EnvironmentRef {
  readonly provider: string;
  readonly spec: unknown;
}

/**
 * Crucible could not prepare an environment (a source that cannot be read, an install that failed): never a
 * verdict on a program (the judgement is `internal_error`), with what failed in the message.
 */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}

/** What a provider gives for one environment: its layers (host directories, top first), ready to mount. */
export interface PreparedEnvironment {
  readonly layers: readonly string[];
}

/** Prepares and hands out environments of one kind (see the module comment). */
export interface EnvironmentProvider {
  /** The name plans use (`EnvironmentRef.provider`). */
  readonly name: string;
  /**
   * The prepared environment `spec` describes, preparing it first when no prepared copy exists (concurrent callers
   * share one preparation). @throws EnvironmentError when it cannot be prepared; the signal's reason when aborted.
   */
  prepare(spec: unknown, signal?: AbortSignal): Promise<PreparedEnvironment>;
}
