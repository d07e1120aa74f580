/**
 * Crucible's SQL comparators against the published evaluators themselves, on 55 query pairs we wrote (duplicates,
 * ORDER BY, column permutations, NULLs, 0.1 + 0.2, '1' vs 1, DISTINCT, two statements, non-UTF-8 text, test-suite
 * variants, ...). test/fixtures/sql/reference-agreement.json holds, per pair, what each evaluator answered and the
 * rows every executed text gave on every database instance; it was made by scripts/sql-reference-agreement.py,
 * which runs the evaluators' own code from their repositories (docs/FORMATS.md "SQL"). Crucible must agree on
 * every answer. The one documented difference: when the GOLD query fails, the BIRD scripts score the pair 0 and
 * Crucible refuses to judge it (`SqlJudgingError`, an internal_error verdict), never a verdict on the sample.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparatorQueries, judgeSql, SqlJudgingError, type QueryOutcome } from '../../../src/kinds/sql/judging.js';
import { spiderQueryTexts } from '../../../src/kinds/sql/spider-query.js';
import { fromWire, wireValueSchema } from '../../../src/kinds/sql/values.js';
import type { SqlComparatorName } from '../../../src/formats/types.js';
import { PROJECT_ROOT } from '../../../src/paths.js';

type Answer = { value: number | boolean } | { raised: string };
interface Pair {
  id: string;
  db: string;
  instances: string[];
  gold: string;
  predicted: string;
  spider: { goldText: string | null; predictedText: string | null; orderMatters: boolean | null; answer: Answer };
  bird: { birdEx: Answer; birdExSorted: Answer; softF1: Answer }[];
  results: Record<string, ({ rows: unknown[][] } | { error: string })[]>;
}

const fixture = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/sql/reference-agreement.json'), 'utf8')) as { pairs: Pair[] };

function outcomes(pair: Pair, only?: number): Map<string, QueryOutcome[]> {
  const m = new Map<string, QueryOutcome[]>();
  for (const [text, runs] of Object.entries(pair.results)) {
    const chosen = only === undefined ? runs : [runs[only]!];
    m.set(text, chosen.map((r): QueryOutcome => ('error' in r
      ? { ok: false, failure: 'error', message: r.error }
      : { ok: true, rows: r.rows.map((row) => row.map((v) => fromWire(wireValueSchema.parse(v)))) })));
  }
  return m;
}

/** Crucible's answer: match and score, or 'refused' when it will not judge (the gold failed). */
function crucible(pair: Pair, comparator: SqlComparatorName, only?: number): { match: boolean; score: number } | 'refused' {
  const queries = comparatorQueries({ comparators: [comparator] }, pair.gold, pair.predicted);
  const results = outcomes(pair, only);
  try {
    const j = judgeSql(queries, results, results, only === undefined ? pair.instances.length : 1);
    return { match: j.comparisons[0]!.match, score: j.comparisons[0]!.score };
  } catch (error) {
    if (error instanceof SqlJudgingError) return 'refused';
    throw error;
  }
}

/** Whether the gold text (as a BIRD script runs it) failed on instance i. */
function goldFailed(pair: Pair, i: number): boolean {
  const r = pair.results[pair.gold]![i]!;
  return 'error' in r || JSON.stringify(r.rows).includes('badtext');
}

describe('SQL comparators agree with the reference evaluators', () => {
  it('has at least 30 pairs', () => assert.ok(fixture.pairs.length >= 30));

  for (const pair of fixture.pairs) {
    it(pair.id, () => {
      const texts = spiderQueryTexts(pair.gold, pair.predicted);
      assert.equal(texts.gold ?? null, pair.spider.goldText, 'spider gold text');
      assert.equal(texts.predicted ?? null, pair.spider.predictedText, 'spider predicted text');
      if (pair.spider.orderMatters !== null) assert.equal(texts.orderMatters, pair.spider.orderMatters, 'order matters');

      const spider = crucible(pair, 'spider-testsuite');
      if ('raised' in pair.spider.answer) {
        assert.equal(spider, 'refused', `spider raised ${pair.spider.answer.raised}`);
      } else {
        assert.notEqual(spider, 'refused');
        assert.equal(spider !== 'refused' && spider.match, pair.spider.answer.value === 1, 'spider-testsuite');
      }

      pair.bird.forEach((ref, i) => {
        const checks: [SqlComparatorName, Answer][] = [['bird-ex', ref.birdEx], ['bird-ex-sorted', ref.birdExSorted], ['soft-f1', ref.softF1]];
        for (const [name, answer] of checks) {
          const mine = crucible(pair, name, i);
          if ('raised' in answer) {
            // The script raised: on the prediction (Crucible: no match) or on the gold (Crucible refuses).
            if (goldFailed(pair, i) && !('error' in pair.results[pair.predicted]![i]!)) assert.equal(mine, 'refused', `${name} instance ${i}`);
            else assert.ok(mine !== 'refused' && !mine.match && mine.score === 0, `${name} instance ${i}: ${answer.raised}`);
            continue;
          }
          assert.notEqual(mine, 'refused', `${name} instance ${i}`);
          if (mine === 'refused') continue;
          if (name === 'soft-f1') assert.ok(Math.abs(mine.score - Number(answer.value)) < 1e-12, `${name} instance ${i}: ${mine.score} vs ${answer.value}`);
          else assert.equal(mine.match, answer.value === 1 || answer.value === true, `${name} instance ${i}`);
        }
      });
    });
  }
});
