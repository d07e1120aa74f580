/**
 * A plan's workspace (`PlanWorkspace`, `src/judge/plan.ts`) as the sandbox takes it: the environment prepared by
 * its provider (once; the provider remembers it), mounted at the plan's box path, with the outbox and the
 * sandbox limits the plan asks for.
 */
import { EnvironmentError, type EnvironmentProvider } from '../judge/environment.js';
import type { PlanWorkspace } from '../judge/plan.js';
import { runLimits, type JudgeLimits } from '../limits.js';
import type { Limits } from '../sandbox/types.js';
import type { RunSurroundings } from './executor.js';

/**
 * The limits and surroundings of a workspace plan's runs.
 * @throws EnvironmentError when no provider has the environment's name or it cannot be prepared (the judgement is
 *   then `internal_error`); the signal's reason when aborted.
 */
export async function workspaceRun(workspace: PlanWorkspace, judgeLimits: JudgeLimits,
  providers: ReadonlyMap<string, EnvironmentProvider>, signal?: AbortSignal): Promise<{ readonly limits: Limits; readonly surroundings: RunSurroundings }> {
  const provider = providers.get(workspace.environment.provider);
  if (provider === undefined) {
    throw new EnvironmentError(`no "${workspace.environment.provider}" environments on this judge (it was made without them)`);
  }
  const prepared = await provider.prepare(workspace.environment.spec, signal);
  const base = runLimits({ ...judgeLimits, ...(workspace.runLimits?.wallMs === undefined ? {} : { wallMs: workspace.runLimits.wallMs }) });
  return {
    limits: {
      ...base,
      ...(workspace.runLimits?.processes === undefined ? {} : { processes: workspace.runLimits.processes }),
      ...(workspace.runLimits?.diskKiB === undefined ? {} : { diskKiB: workspace.runLimits.diskKiB }),
    },
    surroundings: {
      workspace: { layers: prepared.layers, boxPath: workspace.boxPath, writable: workspace.writable },
      ...(workspace.outbox === true ? { outbox: true } : {}),
      ...(workspace.loopback === true ? { loopback: true } : {}),
    },
  };
}
