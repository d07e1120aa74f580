/** What every route module receives: the service, the judge (plain runs), languages, metrics and config. */
import type { Judge } from '../judge/judge.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Sandbox } from '../sandbox/index.js';
import type { ServeConfig } from './config.js';
import type { Counter, Histogram } from './metrics.js';
import type { JudgeService } from './service.js';
import type { TrainingFeed } from './training.js';

export interface ServerMetrics {
  readonly httpRequests: Counter;
  readonly httpSeconds: Histogram;
  readonly verdicts: Counter;
  readonly verdictSeconds: Histogram;
  readonly rejected: Counter;
}

export interface ServerContext {
  readonly config: ServeConfig;
  readonly service: JudgeService;
  readonly judge: Judge;
  readonly languages: LanguageRegistry;
  /** The sandbox the judge runs on, for `/health` (slots busy, isolation). */
  readonly sandbox: Sandbox;
  readonly metrics: ServerMetrics;
  /** True once shutdown began: new work is refused with `shutting_down`. */
  readonly draining: () => boolean;
  readonly startedMs: number;
  /** The training feed (set once the store is open; null when the server has no store). */
  training: TrainingFeed | null;
}
