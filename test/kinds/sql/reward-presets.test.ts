/** SQL-R1's and SkyRL-SQL's reward rules (DataArcTech/SQL-R1 synsql.py, NovaSky-AI/SkyRL envs/sql/utils.py). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skyrlSqlExtract, skyrlSqlScore, sqlR1Extract, sqlR1Score } from '../../../src/kinds/sql/reward-presets.js';

const R1_GOOD = '<think>count them</think>\n<answer>Here:\n```sql\nSELECT  count(*)\nFROM t\n```\n</answer>';

describe('sql-r1 preset', () => {
  it('takes the last sql block of the answer, whitespace collapsed', () => {
    const e = sqlR1Extract(R1_GOOD);
    assert.equal(e.formatOk, true);
    assert.equal(e.sql, 'SELECT count(*) FROM t');
    assert.equal(e.thinkText, 'count them');
  });
  it('format: each tag once, in order, with a non-empty sql block', () => {
    assert.equal(sqlR1Extract('<answer>```sql\nSELECT 1```</answer><think>x</think>').formatOk, false);
    assert.equal(sqlR1Extract('<think>a</think><think>b</think><answer>```sql\nSELECT 1```</answer>').formatOk, false);
    assert.equal(sqlR1Extract('<think>a</think><answer>SELECT 1</answer>').formatOk, false);
    assert.equal(sqlR1Extract('<think>a</think><answer>```sql\n  ```</answer>').formatOk, false);
    assert.equal(sqlR1Extract('system prompt <answer> Assistant: <think>a</think><answer>```sql SELECT 1```</answer>').formatOk, true);
  });
  it('scores -1, -1, -2 + 1, and 1 + 2 + 3 + the length share', () => {
    const bad = sqlR1Extract('no tags');
    assert.equal(sqlR1Score(bad, 'match'), -1);
    const e = sqlR1Extract(R1_GOOD);
    assert.equal(sqlR1Score(e, 'unexecutable'), -1);
    assert.equal(sqlR1Score(e, 'mismatch'), 0);
    const answer = 'Here:\n```sql\nSELECT  count(*)\nFROM t\n```';
    const expected = 6 + 'SELECT count(*) FROM t'.length / answer.length + (('count them'.length + answer.length) / 2048) * 0.5;
    assert.equal(sqlR1Score(e, 'match'), expected);
  });
});

describe('skyrl-sql preset', () => {
  const good = '<think>look</think><sql>SELECT 1</sql><observation>1</observation>\n <think>ok</think><solution> SELECT 1 </solution>';
  it('accepts the published shape and takes the solution text', () => {
    const e = skyrlSqlExtract(good);
    assert.deepEqual(e, { formatOk: true, sql: 'SELECT 1' });
    assert.equal(skyrlSqlScore(e, 'match'), 1);
    assert.equal(skyrlSqlScore(e, 'mismatch'), 0);
    assert.equal(skyrlSqlScore(e, 'unexecutable'), 0);
  });
  it('rejects what verify_format_and_extract rejects', () => {
    for (const bad of [
      '<think>x</think>SELECT 1',
      '<think>x</think><solution>a</solution><solution>b</solution>',
      '<think>x</think><solution>SELECT 1',
      '<think>x</think><solution><Think>SELECT 1</solution>',
      '<solution>SELECT 1</solution>',
      '<think>x</think><observation>r</observation> done <solution>SELECT 1</solution>',
    ]) {
      const e = skyrlSqlExtract(bad);
      assert.equal(e.formatOk, false, bad);
      assert.equal(skyrlSqlScore(e, 'match'), -1);
    }
    assert.equal(skyrlSqlExtract('<think>x</think><solution><thinking>SELECT 1</solution>').formatOk, true); // \b after think
  });
});
