/**
 * A model's contest rating as CodeElo defines it (Quan et al. 2025, "CodeElo: Benchmarking Competition-level Code
 * Generation of LLMs with Human-comparable Elo Ratings", arXiv 2501.01257), on Codeforces' rating formula
 * (M. Mirzayanov, "Open Codeforces Rating System", codeforces.com/blog/entry/20762). Pure.
 *
 * Per contest:
 * 1. **The model's score**, by the contest's rules, from each problem's outcome (solved, submissions, minute):
 *    - `cf` (score-based rounds): a solved problem worth P points scores max(0.3·P, P − ⌊P·t / 250⌋ − 50·w),
 *      t the minute of the accepted submission (0 unless given: CodeElo submits at once) and w the rejected
 *      submissions before it (Codeforces' scoring: P/250 lost per minute, 50 per rejected attempt, at least 30%);
 *    - `icpc` (ICPC-rule rounds: Div. 3/4, Educational): problems solved, then the penalty
 *      Σ_solved (t + penaltyMinutes·w), penaltyMinutes 10 on Codeforces (ICPC itself uses 20).
 *    Unsolved problems score nothing whatever their submissions.
 * 2. **The model's place** m among the human participants (their results as the standings give them): as in
 *    Codeforces' rating code, tied results take the worst place of the tie, so m = 1 + the humans whose result
 *    is better than or equal to the model's.
 * 3. **Its rating** r_c: the rating whose expected place equals m, where the expected place (Codeforces' seed) of
 *    rating r among humans of ratings r_i is seed(r) = 1 + Σ_i 1 / (1 + 10^((r − r_i)/400)) (each term: the
 *    Elo probability that human i places above r). seed falls strictly as r rises, so r_c is found by bisection on
 *    [lo, hi] = [0, max_i r_i + 100] (CodeElo's bounds) unless given, to 1e-6; a place outside the seeds the bounds
 *    allow gives the bound itself (`clamped`).
 * Over contests: the model's rating is the **mean** of the per-contest ratings (CodeElo: an average of
 * independent per-contest performances has lower variance than Codeforces' sequential updates), with a percentile
 * bootstrap confidence interval over contests (contests drawn with replacement; `bootstrap.ts`, seeded).
 */
import { bootstrapInterval, resolveBootstrapOptions, type BootstrapOptions, type BootstrapSettings, type IntervalEstimate } from './bootstrap.js';

/** One problem of a contest as the model did it. */
export interface ProblemOutcome {
  readonly id: string;
  /** Points (`cf` contests). */
  readonly points?: number;
  readonly solved: boolean;
  /** Submissions made (≥ 1 when solved: the accepted one and the rejected ones before it). */
  readonly submissions: number;
  /** Minute of the accepted submission (default 0). */
  readonly minute?: number;
}

/** A human participant: rating before the contest, and result (points, or solved and penalty). */
export interface HumanResult {
  readonly rating: number;
  readonly points?: number;
  readonly solved?: number;
  readonly penalty?: number;
}

/** One contest: its rules, the model's outcomes, the humans. */
export interface ContestResult {
  readonly id: string;
  readonly rules: 'cf' | 'icpc';
  /** ICPC rules: minutes per rejected submission (default 10, Codeforces' ICPC-rule rounds). */
  readonly penaltyMinutes?: number;
  readonly problems: readonly ProblemOutcome[];
  readonly humans: readonly HumanResult[];
  /** Bisection bounds of the rating (default [0, max human rating + 100]). */
  readonly ratingBounds?: readonly [number, number];
}

/** The model's result in one contest, the place it takes and the rating that place earns. */
export interface ContestRating {
  readonly id: string;
  readonly points: number | null;
  readonly solved: number;
  readonly penalty: number | null;
  readonly place: number;
  readonly participants: number;
  readonly rating: number;
  /** True when the place lies beyond what the bounds allow, so the rating is a bound. */
  readonly clamped: boolean;
  /** Fraction of the contest's humans rated below the rating. */
  readonly percentile: number;
}

/** The model's rating over contests. */
export interface EloRating {
  readonly rating: IntervalEstimate;
  readonly contests: readonly ContestRating[];
  readonly bootstrap: BootstrapSettings;
}

/** Codeforces' Elo probability that a participant rated `ra` places above one rated `rb`. */
export function winProbability(ra: number, rb: number): number {
  return 1 / (1 + Math.pow(10, (rb - ra) / 400));
}

/** Codeforces' seed: the expected place of rating `r` among `ratings` (1-based). */
export function expectedPlace(r: number, ratings: readonly number[]): number {
  return 1 + ratings.reduce((s, ri) => s + winProbability(ri, r), 0);
}

/**
 * The rating whose expected place among `ratings` is `place`, by bisection on [lo, hi] to 1e-6.
 * @throws RangeError for an empty field, a place below 1, or lo ≥ hi.
 */
export function ratingForPlace(place: number, ratings: readonly number[], bounds: readonly [number, number]): { rating: number; clamped: boolean } {
  if (ratings.length === 0) throw new RangeError('ratingForPlace: no participants');
  if (!(place >= 1)) throw new RangeError(`ratingForPlace: place must be >= 1, got ${place}`);
  let [lo, hi] = bounds;
  if (!(lo < hi)) throw new RangeError(`ratingForPlace: bounds [${lo}, ${hi}] are empty`);
  if (expectedPlace(hi, ratings) >= place) return { rating: hi, clamped: expectedPlace(hi, ratings) > place };
  if (expectedPlace(lo, ratings) <= place) return { rating: lo, clamped: expectedPlace(lo, ratings) < place };
  while (hi - lo > 1e-6) {
    const mid = (lo + hi) / 2;
    // A higher rating expects a better (smaller) place.
    if (expectedPlace(mid, ratings) > place) lo = mid;
    else hi = mid;
  }
  return { rating: (lo + hi) / 2, clamped: false };
}

/** The model's score in a contest. @throws RangeError for malformed outcomes. */
export function modelScore(contest: ContestResult): { points: number | null; solved: number; penalty: number | null } {
  let points = 0;
  let solved = 0;
  let penalty = 0;
  const per = contest.penaltyMinutes ?? 10;
  for (const p of contest.problems) {
    if (!Number.isInteger(p.submissions) || p.submissions < 0 || (p.solved && p.submissions < 1)) {
      throw new RangeError(`${contest.id}/${p.id}: submissions must be an integer, at least 1 when solved`);
    }
    if (!p.solved) continue;
    const wrong = p.submissions - 1;
    const minute = p.minute ?? 0;
    solved++;
    if (contest.rules === 'cf') {
      if (p.points === undefined || !(p.points > 0)) throw new RangeError(`${contest.id}/${p.id}: a cf contest's problem needs its points`);
      points += Math.max(0.3 * p.points, p.points - Math.floor((p.points * minute) / 250) - 50 * wrong);
    } else {
      penalty += minute + per * wrong;
    }
  }
  return contest.rules === 'cf' ? { points, solved, penalty: null } : { points: null, solved, penalty };
}

/** Whether a human's result is better than or equal to the model's (ties go against the model, as Codeforces ranks them). */
function atLeastAsGood(contest: ContestResult, human: HumanResult, model: ReturnType<typeof modelScore>): boolean {
  if (contest.rules === 'cf') {
    if (human.points === undefined) throw new RangeError(`${contest.id}: a cf contest's humans need points`);
    return human.points >= model.points!;
  }
  if (human.solved === undefined || human.penalty === undefined) throw new RangeError(`${contest.id}: an icpc contest's humans need solved and penalty`);
  return human.solved > model.solved || (human.solved === model.solved && human.penalty <= model.penalty!);
}

/** The model's rating in one contest. @throws RangeError for malformed input. */
export function rateContest(contest: ContestResult): ContestRating {
  if (contest.humans.length === 0) throw new RangeError(`${contest.id}: no human participants`);
  const ratings = contest.humans.map((h) => h.rating);
  const model = modelScore(contest);
  const place = 1 + contest.humans.filter((h) => atLeastAsGood(contest, h, model)).length;
  const bounds = contest.ratingBounds ?? [0, Math.max(...ratings) + 100];
  const { rating, clamped } = ratingForPlace(place, ratings, bounds);
  return { id: contest.id, ...model, place, participants: contest.humans.length + 1, rating, clamped,
    percentile: ratings.filter((r) => r < rating).length / ratings.length };
}

/**
 * The model's rating over contests: the mean of the per-contest ratings with its bootstrap interval over contests.
 * @throws RangeError for no contests or malformed input.
 */
export function rateContests(contests: readonly ContestResult[], options: BootstrapOptions = {}): EloRating {
  if (contests.length === 0) throw new RangeError('no contests');
  const rated = contests.map(rateContest);
  const mean = (xs: readonly ContestRating[]): number => xs.reduce((s, c) => s + c.rating, 0) / xs.length;
  return { rating: bootstrapInterval(rated, mean, options), contests: rated, bootstrap: resolveBootstrapOptions(options) };
}
