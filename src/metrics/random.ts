/**
 * Seeded pseudo-random numbers for resampling. Reproducible by default: every consumer that does not
 * pass a seed gets `DEFAULT_SEED`, so two runs of the same command print the same intervals.
 *
 * Generator: xoshiro128** 1.1 (D. Blackman and S. Vigna, "Scrambled Linear Pseudorandom Number
 * Generators", ACM TOMS 2021; reference C at https://prng.di.unimi.it/xoshiro128starstar.c):
 * 128 bits of state as four uint32 words, output `rotl(s1 * 5, 7) * 9`, period 2^128 − 1.
 * Seeding: the four state words are drawn from the 32-bit SplitMix-style sequence
 * `z = seed + i·0x9E3779B9; z = murmur3 fmix32(z)` (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014, for the idea; MurmurHash3 `fmix32` for the finaliser),
 * which guarantees a state that is not all zero for every seed.
 */

/** Seed used when none is given (any fixed value would do; this one is documented in docs/METRICS.md). */
export const DEFAULT_SEED = 20240601;

/** A stream of pseudo-random numbers. Not safe to share between consumers that need independent streams. */
export interface Rng {
  /** Uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform float in [0, 1) with 32 bits of resolution. */
  nextFloat(): number;
  /** Uniform integer in [0, bound) without modulo bias; `bound` must be an integer in [1, 2^32]. */
  nextInt(bound: number): number;
}

const TWO_POW_32 = 4294967296;

function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function rotl(x: number, bits: number): number {
  return ((x << bits) | (x >>> (32 - bits))) >>> 0;
}

/**
 * Creates an xoshiro128** generator. `seed` must be a safe non-negative integer (both its low and high
 * 32 bits are used). Identical seeds give identical streams.
 * @throws RangeError when `seed` is not a safe non-negative integer.
 */
export function createRng(seed: number = DEFAULT_SEED): Rng {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`seed must be a safe non-negative integer, got ${seed}`);
  }
  const low = seed >>> 0;
  const high = Math.floor(seed / TWO_POW_32) >>> 0;
  const base = (low ^ fmix32(high + 0x6a09e667)) >>> 0;
  const state: number[] = [];
  for (let i = 0; i < 4; i++) state.push(fmix32(base + Math.imul(i + 1, 0x9e3779b9)));
  if (state.every((w) => w === 0)) return createRngFromState([1, 0, 0, 0]);
  return createRngFromState(state);
}

/**
 * Creates an xoshiro128** generator from an explicit 128-bit state (four uint32 words, not all zero).
 * Exposed so tests can check the output against the reference implementation's known values.
 * @throws RangeError when the state is not four uint32 words or is all zero.
 */
export function createRngFromState(state: readonly number[]): Rng {
  if (state.length !== 4 || !state.every((w) => Number.isInteger(w) && w >= 0 && w < TWO_POW_32)) {
    throw new RangeError('xoshiro128** state must be four uint32 words');
  }
  if (state.every((w) => w === 0)) throw new RangeError('xoshiro128** state must not be all zero');
  const s = Uint32Array.from(state);

  const nextUint32 = (): number => {
    const s0 = s[0]!;
    const s1 = s[1]!;
    const s2 = s[2]!;
    const s3 = s[3]!;
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    const n2 = (s2 ^ s0) >>> 0;
    const n3 = (s3 ^ s1) >>> 0;
    s[1] = s1 ^ n2;
    s[0] = s0 ^ n3;
    s[2] = n2 ^ t;
    s[3] = rotl(n3, 11);
    return result;
  };

  const nextInt = (bound: number): number => {
    if (!Number.isInteger(bound) || bound < 1 || bound > TWO_POW_32) {
      throw new RangeError(`bound must be an integer in [1, 2^32], got ${bound}`);
    }
    // Rejection sampling: discard the top partial block of 2^32 so every residue is equally likely.
    const limit = TWO_POW_32 - (TWO_POW_32 % bound);
    for (;;) {
      const x = nextUint32();
      if (x < limit) return x % bound;
    }
  };

  return {
    nextUint32,
    nextFloat: () => nextUint32() / TWO_POW_32,
    nextInt,
  };
}
