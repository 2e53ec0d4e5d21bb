// A seeded pseudo-random sequence (mulberry32): tiny, fast, and the same numbers on every
// platform for a seed, so that a generated scenario, or a randomized test that failed,
// is made again exactly from its seed.

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
