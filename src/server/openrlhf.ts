/**
 * OpenRLHF remote reward compatibility: `POST /get_reward`.
 *
 * OpenRLHF's `--remote_rm_url` client (`openrlhf/utils/remote_rm_utils.py`, `request_api_wrapper`) posts JSON
 * and reads `response[score_key]` (default `rewards`); its reward-server examples send
 * `{"query": [...], "prompts": [...], "labels": [...]}` and read `{"rewards", "scores", "extra_logs"}`.
 * - `query[i]`: prompt + response as the trainer rendered it. The response is `query[i]` minus the leading
 *   `prompts[i]` when it starts with it, else the whole query.
 * - `labels[i]`: how to judge sample i (docs/API.md, "Label format"): a JSON string (or object) with
 *   `problem` (a loaded problem id) or `tests` (`[{input, output}]`), optional `language`, `comparator`,
 *   `timeLimitMs`, `reward` (a reward spec, default binary; a `sql_preset` spec reads the response by its preset's
 *   own rule, `./sql-presets.ts`); a bare string that is not JSON is a problem id.
 * - `rewards[i]` = `scores[i]` = the reward; `extra_logs` holds per-sample lists of numbers only (`extraLogs`):
 *   OpenRLHF makes a tensor of each value, which a list of strings would break.
 * Empty lists give empty answers. When any sample is `internal_error` there is no honest float to return, so
 * the whole request fails with 500 `internal_error` naming the samples: OpenRLHF's client retries (5 times)
 * and then raises, instead of training on a made-up 0. Overloaded: 429 with `Retry-After` (the client retries
 * any failure after 1 s).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ComparatorSchema } from '../formats/index.js';
import { groupSignals, rewardOf, rewardStatusOf, RewardSpecSchema, type RewardSpec } from '../reward/index.js';
import { SAMPLE_STATUSES, type Verdict } from '../verdict/index.js';
import type { ServerContext } from './context.js';
import { efficiencyUnavailable, rolloutEfficiency } from './efficiency-reward.js';
import { ServiceError } from './errors.js';
import type { Prepared } from './service.js';
import { rolloutOf } from './training.js';
import { feedContext, prepareRollout } from './native.js';
import { sqlPresetReward, type SqlPresetRollout } from './sql-presets.js';
import { requestScope } from './scope.js';
import { fieldPath, parseBody } from './validate.js';

export const GetRewardSchema = z.object({
  query: z.array(z.string()),
  prompts: z.array(z.string()).optional(),
  labels: z.array(z.union([z.string(), z.record(z.unknown())])).optional(),
});

/** The label of one sample. */
export const LabelSchema = z.object({
  problem: z.string().min(1).optional(),
  tests: z.array(z.object({ input: z.string(), output: z.string() }).strict()).min(1).optional(),
  language: z.string().min(1).optional(),
  comparator: ComparatorSchema.optional(),
  timeLimitMs: z.number().int().positive().optional(),
  reward: RewardSpecSchema.default({ kind: 'binary' }),
  group: z.union([z.string().min(1), z.number()]).optional(),
}).strict().refine((l) => (l.problem === undefined) !== (l.tests === undefined), {
  message: 'a label needs exactly one of "problem" and "tests"', path: ['problem'],
});

function parseLabel(raw: string | Record<string, unknown>, i: number): z.output<typeof LabelSchema> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (!text.startsWith('{')) value = { problem: text };
    else {
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new ServiceError('invalid_body', `labels[${i}]: not JSON: ${(error as Error).message}`, `labels[${i}]`);
      }
    }
  }
  const parsed = LabelSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = fieldPath(['labels', i, ...issue.path]);
  throw new ServiceError('invalid_body', `${field}: ${issue.message}`, field);
}

/**
 * Per-sample logs OpenRLHF can take: it turns every `extra_logs` value into a tensor (`torch.tensor(v)`), so
 * each is a list of numbers, one per sample: `passed` (0/1), `tests_passed`, `tests_total`, `cpu_ms`, and one
 * 0/1 list per status, `status_<status>`, for every status (the same keys in every answer, so batches stack).
 * `passed` and the status are the ones the reward counts (`rewardStatusOf`: base and plus on EvalPlus problems).
 */
export function extraLogs(verdicts: readonly Verdict[]): Record<string, number[]> {
  const logs: Record<string, number[]> = {
    passed: verdicts.map((v) => (rewardStatusOf(v) === 'passed' ? 1 : 0)),
    tests_passed: verdicts.map((v) => v.tests.filter((t) => t.status === 'passed').length),
    tests_total: verdicts.map((v) => v.testCount),
    cpu_ms: verdicts.map((v) => v.cpuMs),
  };
  for (const status of SAMPLE_STATUSES) logs[`status_${status}`] = verdicts.map((v) => (rewardStatusOf(v) === status ? 1 : 0));
  return logs;
}

/**
 * The group signals of every sample, as per-sample lists of numbers for `extra_logs` (`groupSignals`): each sample
 * carries its group's `group_index` (groups numbered by first appearance in the request), `group_size`,
 * `group_mean` and `group_std` (n − 1) of the rewards, `group_pass_rate`, `group_all_pass`, `group_all_fail`,
 * `group_keep` (verl DAPO `filter_groups` on acc, 0/1) and `group_keep_by_reward` (on the reward, 0/1).
 */
export function groupLogs(groups: readonly string[], rewards: readonly number[], verdicts: readonly Verdict[]): Record<string, number[]> {
  const members = new Map<string, number[]>();
  groups.forEach((g, i) => members.set(g, [...(members.get(g) ?? []), i]));
  const index = new Map([...members.keys()].map((g, k) => [g, k]));
  const signals = new Map([...members].map(([g, idx]) => [g, groupSignals(idx.map((i) => rewards[i]!),
    idx.map((i) => rewardStatusOf(verdicts[i]!) === 'passed'))]));
  const per = (f: (s: ReturnType<typeof groupSignals>) => number): number[] => groups.map((g) => f(signals.get(g)!));
  return {
    group_index: groups.map((g) => index.get(g)!),
    group_size: per((s) => s.size),
    group_mean: per((s) => s.mean),
    group_std: per((s) => s.sampleStd),
    group_pass_rate: per((s) => s.passRate),
    group_all_pass: per((s) => (s.allPass ? 1 : 0)),
    group_all_fail: per((s) => (s.allFail ? 1 : 0)),
    group_keep: per((s) => (s.keep ? 1 : 0)),
    group_keep_by_reward: per((s) => (s.keepByReward ? 1 : 0)),
  };
}

/**
 * A sample's GRPO group key: the label's `group` when it has one, else its prompt (OpenRLHF sends the
 * `n_samples_per_prompt` rollouts of one prompt with the same `prompts[i]`), else the label as sent.
 */
function groupKeyOf(label: z.output<typeof LabelSchema>, prompt: string | undefined, raw: string | Record<string, unknown>): string {
  if (label.group !== undefined) return String(label.group);
  if (prompt !== undefined) return prompt;
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

/** A group key short enough for a training event (prompts are long): itself up to 200 characters, else its sha256. */
function shortGroupId(key: string): string {
  return key.length <= 200 ? key : `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

export function registerOpenRlhf(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/get_reward', async (request, reply) => {
    const startedMs = performance.now();
    const body = parseBody(GetRewardSchema, request.body);
    const n = body.query.length;
    for (const key of ['prompts', 'labels'] as const) {
      const list = body[key];
      if (list !== undefined && list.length !== n) {
        throw new ServiceError('invalid_body', `${key}: ${list.length} entries for ${n} queries`, key);
      }
    }
    if (n > 0 && body.labels === undefined) throw new ServiceError('invalid_body', 'labels: required (tests travel in labels)', 'labels');
    const specs: RewardSpec[] = [];
    const prepared: Prepared[] = [];
    const presets: (SqlPresetRollout | undefined)[] = [];
    const groups: string[] = [];
    for (let i = 0; i < n; i++) {
      const label = parseLabel(body.labels![i]!, i);
      const query = body.query[i]!;
      const prompt = body.prompts?.[i];
      const response = prompt !== undefined && query.startsWith(prompt) ? query.slice(prompt.length) : query;
      const failFast = label.reward.kind === 'binary' && label.reward.failFast;
      const rollout = prepareRollout(ctx, { response, language: label.language, problem: label.problem, tests: label.tests,
        comparator: label.comparator, timeLimitMs: label.timeLimitMs, failFast }, label.reward, `labels[${i}].`);
      const noEfficiency = label.reward.kind !== 'sql_preset' && label.reward.efficiency !== undefined ? efficiencyUnavailable(ctx, rollout.prepared.problemId) : null;
      if (noEfficiency !== null) throw new ServiceError('invalid_body', `labels[${i}].reward.efficiency: ${noEfficiency}`, `labels[${i}].reward.efficiency`);
      prepared.push(rollout.prepared);
      presets.push(rollout.preset);
      specs.push(label.reward);
      groups.push(groupKeyOf(label, prompt, body.labels![i]!));
    }
    ctx.service.reserve(prepared);
    const scope = requestScope(request, reply);
    const judged = await Promise.all(prepared.map((p) => ctx.service.judgeReserved(p, scope)));
    const efficiencies = await Promise.all(judged.map((j, i) => {
      const spec = specs[i]!;
      return spec.kind !== 'sql_preset' && spec.efficiency !== undefined && rewardStatusOf(j.verdict) === 'passed'
        ? rolloutEfficiency(ctx, prepared[i]!) : Promise.resolve(undefined);
    }));
    const unmeasured = efficiencies.flatMap((e, i) => (e?.ok === false ? [i] : []));
    if (unmeasured.length > 0) {
      const first = efficiencies[unmeasured[0]!] as { error: string };
      const error = new ServiceError('internal_error', `no efficiency term for samples [${unmeasured.join(', ')}]: ${first.error}`);
      return reply.code(500).send(error.body());
    }
    const rewards = judged.map((j, i) => {
      const preset = presets[i];
      const e = efficiencies[i];
      return preset === undefined ? rewardOf(specs[i]!, j.verdict, e?.ok === true ? { cost: e.cost, referenceCost: e.referenceCost } : undefined)
        : sqlPresetReward(preset, j.verdict).reward;
    });
    const failed = rewards.flatMap((r, i) => (r === null ? [i] : []));
    if (failed.length > 0) {
      const first = judged[failed[0]!]!.verdict.reason ?? 'crucible failed';
      const error = new ServiceError('internal_error',
        `no reward for samples [${failed.join(', ')}]: Crucible could not judge them (${first}); retry the request`);
      return reply.code(500).send(error.body());
    }
    const given = rewards as number[];
    // OpenRLHF's body has no room of ours: the training run and the idempotency key come from headers.
    const where = feedContext(request, {}, startedMs);
    judged.forEach((j, i) => ctx.training?.record(rolloutOf(prepared[i]!.problemId, given[i]!, j.verdict, { groupId: shortGroupId(groups[i]!),
      latencyMs: performance.now() - startedMs, ...(where.batchKey === undefined ? {} : { eventKey: `${where.batchKey}#${i}` }) }), where.run));
    const verdicts = judged.map((j) => j.verdict);
    return {
      rewards,
      scores: rewards,
      extra_logs: n === 0 ? {} : { ...extraLogs(verdicts), ...groupLogs(groups, given, verdicts) },
    };
  });
}
