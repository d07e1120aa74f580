/** What every route module receives: the service, the executor for plain runs, metrics and config. */
import type { LanguageRegistry } from '../languages/registry.js';
import type { Executor } from '../runner/executor.js';
import type { Sandbox } from '../sandbox/index.js';
import type { ServeConfig } from './config.js';
import type { Counter, Histogram } from './metrics.js';
import type { JudgeService } from './service.js';

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
  readonly executor: Executor;
  readonly languages: LanguageRegistry;
  readonly sandbox: Sandbox;
  readonly metrics: ServerMetrics;
  /** True once shutdown began: new work is refused with `shutting_down`. */
  readonly draining: () => boolean;
  readonly startedMs: number;
}
