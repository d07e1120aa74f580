/**
 * The store the export tests (test/report/tensorboard.test.ts, wandb-offline.test.ts) write out: one finished eval
 * run of the store conformance fixture's four samples (two problems, two passing), and one training run of 30
 * steps × 4 GRPO groups whose rewards are 1 where (step + group) % 3 === 0.
 */
import { openResultStore } from '../../src/store/open.js';
import type { TrainingEvent } from '../../src/store/training-event.js';
import { fixtureSamples, newRun } from '../store/conformance.js';

/** Fill the store at `db` with the eval run `evalName` (tag `t1`) and the training run `trainingName`. */
export async function seedExportStore(db: string, evalName: string, trainingName: string): Promise<void> {
  const store = await openResultStore(db);
  try {
    const id = await store.createRun(newRun({ name: evalName, tags: ['t1'] }));
    await store.addProblems(id, [{ taskId: 'add', kind: 'call', testCount: 3 }, { taskId: 'mul', kind: 'call', testCount: 2 }]);
    await store.appendSamples(id, fixtureSamples());
    await store.finishRun(id, 'finished', { bootstrap: { reps: 200, seed: 7 } });
    const events: TrainingEvent[] = [];
    for (let step = 0; step < 30; step++) {
      for (let g = 0; g < 4; g++) events.push({ taskId: `t${g}`, reward: (step + g) % 3 === 0 ? 1 : 0, status: 'passed', passed: true, step, groupId: `t${g}@${step}`,
        timeMs: 1_700_000_000_000 + step * 1000, latencyMs: 10 + g });
    }
    await store.recordTrainingEvents(trainingName, events);
  } finally {
    await store.close();
  }
}
