/** Reward specs and GRPO group statistics: the public surface of `src/reward/`. */
export {
  RewardSpecSchema,
  RewardError,
  computeReward,
  parseRewardSpec,
  passFraction,
  type RewardInput,
  type RewardSpec,
  type RewardSpecInput,
} from './spec.js';
export { groupStats, advantages, type GroupStats, type AdvantageOptions } from './group.js';
export { rewardOf, rewardStatusOf, testsPassedOf } from './verdict.js';
export { AnalysisTermSchema, analysisPenalty, findingCost, type AnalysisTerm } from './analysis.js';
export { groupSignals, type GroupSignals } from './signals.js';
export { numpyStd, numpySum } from './numpy-float.js';
