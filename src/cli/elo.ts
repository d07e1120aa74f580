/**
 * `crucible elo --contests FILE [--json] [--reps N] [--seed S] [--confidence C]`: a model's CodeElo rating from its
 * contest results (`src/metrics/elo.ts`; the file's shape is `ContestsFileSchema` below and docs/METRICS.md, "Elo").
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { rateContests, type EloRating } from '../metrics/elo.js';
import { UsageError } from './errors.js';
import { SIGNAL_STORE_HELP, storeSignalResult } from './signal-results.js';
import { parsePositiveInt } from './options.js';

const rating = z.number().finite();
const count = z.number().int().nonnegative();

/** The contests file: every contest's rules, the model's outcome per problem, and the humans' ratings and results. */
export const ContestsFileSchema = z.object({
  model: z.string().optional(),
  contests: z.array(z.object({
    id: z.string().min(1),
    rules: z.enum(['cf', 'icpc']),
    penaltyMinutes: z.number().nonnegative().optional(),
    ratingBounds: z.tuple([rating, rating]).optional(),
    problems: z.array(z.object({
      id: z.string().min(1),
      points: z.number().positive().optional(),
      solved: z.boolean(),
      submissions: count,
      minute: z.number().nonnegative().optional(),
    }).strict()).min(1),
    humans: z.array(z.object({
      rating,
      points: z.number().nonnegative().optional(),
      solved: count.optional(),
      penalty: z.number().nonnegative().optional(),
      rank: z.number().int().positive().optional().describe('Place in the standings (informational; the place is computed from the results).'),
    }).strict()).min(1),
  }).strict()).min(1),
}).strict();

function readContests(path: string): z.output<typeof ContestsFileSchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw new UsageError(`${path}: not JSON: ${error.message}`);
    throw error;
  }
  const parsed = ContestsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${path}: ${issue.path.join('.') || 'file'}: ${issue.message}`);
  }
  return parsed.data;
}

function text(result: EloRating, model: string | undefined): string {
  const ci = `${Math.round(result.bootstrap.confidence * 100)}%`;
  const lines = [`${model === undefined ? '' : `${model}: `}Elo ${result.rating.point.toFixed(0)} (${ci} CI ${result.rating.lower.toFixed(0)}–${
    result.rating.upper.toFixed(0)}, bootstrap over ${result.contests.length} contests, ${result.bootstrap.reps} reps, seed ${result.bootstrap.seed})`];
  for (const c of result.contests) {
    const score = c.points !== null ? `${c.points} points` : `${c.solved} solved, penalty ${c.penalty}`;
    lines.push(`  ${c.id}: ${score}, place ${c.place} of ${c.participants}, rating ${c.rating.toFixed(0)}${c.clamped ? ' (at a bound)' : ''}, above ${(100 * c.percentile).toFixed(1)}% of its humans`);
  }
  return lines.join('\n') + '\n';
}

/** Add `elo` to the program. */
export function register(program: Command): void {
  program.command('elo')
    .description('rate a model from contest results as CodeElo does (Codeforces\' rating formula), with a bootstrap CI over contests')
    .requiredOption('--contests <file>', 'JSON: {contests: [{id, rules: cf|icpc, problems: [{id, points?, solved, submissions, minute?}], humans: [{rating, points | solved + penalty}]}]}')
    .option('--json', 'print the result as JSON')
    .option('--reps <n>', 'bootstrap replicates', parsePositiveInt, 2000)
    .option('--seed <n>', 'bootstrap seed', parsePositiveInt, 20240601)
    .option('--store [spec]', SIGNAL_STORE_HELP)
    .option('--name <name>', 'name of the stored result (default: the model, else the contests file\'s name)')
    .action(async (flags: { contests: string; json?: boolean; reps: number; seed: number; store?: string | true; name?: string }) => {
      const file = readContests(flags.contests);
      let result: EloRating;
      try {
        result = rateContests(file.contests, { reps: flags.reps, seed: flags.seed });
      } catch (error) {
        if (error instanceof RangeError) throw new UsageError(`${flags.contests}: ${error.message}`);
        throw error;
      }
      process.stdout.write(flags.json ? JSON.stringify({ model: file.model ?? null, ...result }) + '\n' : text(result, file.model));
      if (flags.store !== undefined) {
        const stored = await storeSignalResult(flags.store === true ? undefined : flags.store, { kind: 'elo',
          name: flags.name ?? file.model ?? basename(flags.contests), inputs: { contestsFile: flags.contests, reps: flags.reps, seed: flags.seed },
          result: { model: file.model ?? null, ...result }, headline: { model: file.model ?? null, rating: result.rating.point,
            lower: result.rating.lower, upper: result.rating.upper, contests: result.contests.length } });
        process.stderr.write(`stored as signal result ${stored.id} in ${stored.location}\n`);
      }
    });
}
