/** What every route module receives: the service, the judge (plain runs), languages, metrics and config. */
import type { Judge, PlainRunOutcome } from '../judge/judge.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Sandbox } from '../sandbox/index.js';
import type { RepositoryEnvironments } from '../environments/repository/provider.js';
import type { SharedWork } from '../engine/shared-work.js';
import type { ServeConfig } from './config.js';
import type { HealthMonitor } from './health.js';
import type { Counter, Histogram } from './metrics.js';
import type { JudgeService } from './service.js';
import type { TrainingFeed } from './training.js';

export interface ServerMetrics {
  readonly httpRequests: Counter;
  readonly httpSeconds: Histogram;
  readonly verdicts: Counter;
  readonly verdictSeconds: Histogram;
  readonly rejected: Counter;
  /** Items Crucible failed to judge or run (`internal_error`), by route. */
  readonly internalErrors: Counter;
}

export interface ServerContext {
  readonly config: ServeConfig;
  readonly service: JudgeService;
  readonly judge: Judge;
  readonly languages: LanguageRegistry;
  /** The sandbox the judge runs on, for `/health` (slots busy, isolation); null when judging on a queue's fleet. */
  readonly sandbox: Sandbox | null;
  readonly metrics: ServerMetrics;
  /** Plain runs (`/run_code`, `/api/v2/execute`) deduplicated in flight and remembered (`run-plain.ts`). */
  readonly plainRuns: SharedWork<PlainRunOutcome>;
  /** The sandbox and harness self-tests behind `/health` (`health.ts`). */
  readonly health: HealthMonitor;
  /** True once shutdown began: new work is refused with `shutting_down`. */
  readonly draining: () => boolean;
  readonly startedMs: number;
  /** Repository environments (repository problems and sessions); null when judging on a queue's fleet. */
  readonly repositories: RepositoryEnvironments | null;
  /** The training feed (set once the store is open; null when the server has no store). */
  training: TrainingFeed | null;
}
