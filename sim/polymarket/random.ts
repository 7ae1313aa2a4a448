// Stateless, seeded randomness. Every random quantity in the simulated world is a pure function of
// (seed, salt, integer keys), so any past instant can be recomputed on demand without a timer or stored state,
// and two simulators built from the same seed agree bit for bit.

/** 32-bit avalanche (murmur3 finaliser). */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function mixKey(h: number, k: number): number {
  // Keys may exceed 32 bits (unix minutes fit, but be safe): fold the high part in too.
  const lo = k | 0;
  const hi = Math.floor(k / 4294967296) | 0;
  h = Math.imul(h ^ lo, 0xcc9e2d51);
  h = (h << 15) | (h >>> 17);
  h = Math.imul(h, 0x1b873593) ^ hi;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** Uniform 32-bit unsigned integer from (seed, salt, ...keys). */
export function hash32(seed: number, salt: number, a = 0, b = 0, c = 0, d = 0): number {
  let h = mixKey(seed ^ 0x9e3779b9, salt);
  h = mixKey(h, a);
  h = mixKey(h, b);
  h = mixKey(h, c);
  h = mixKey(h, d);
  return fmix(h ^ 24);
}

/** Uniform in [0, 1). */
export function rand(seed: number, salt: number, a = 0, b = 0, c = 0, d = 0): number {
  return hash32(seed, salt, a, b, c, d) / 4294967296;
}

/** Uniform in (0, 1): safe for logs. */
export function randOpen(seed: number, salt: number, a = 0, b = 0, c = 0, d = 0): number {
  return (hash32(seed, salt, a, b, c, d) + 0.5) / 4294967296;
}

/** Standard normal via Box-Muller from two hashed uniforms. */
export function gauss(seed: number, salt: number, a = 0, b = 0, c = 0): number {
  const u1 = randOpen(seed, salt, a, b, c, 1);
  const u2 = rand(seed, salt, a, b, c, 2);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Poisson sample by inversion from one uniform (λ is small everywhere we use it). */
export function poisson(lambda: number, u: number): number {
  if (lambda <= 0) return 0;
  let p = Math.exp(-lambda);
  let cumulative = p;
  let k = 0;
  while (u > cumulative && k < 200) {
    k++;
    p *= lambda / k;
    cumulative += p;
  }
  return k;
}

/** Pareto with minimum xm and tail index alpha, from one uniform in (0, 1). */
export function pareto(xm: number, alpha: number, u: number): number {
  return xm * Math.pow(u, -1 / alpha);
}

/** `words` hashed 32-bit words rendered as lowercase hex (8 hex chars each). */
export function hexWords(words: number, seed: number, salt: number, a = 0, b = 0, c = 0): string {
  let out = "";
  for (let i = 0; i < words; i++)
    out += hash32(seed, salt + i * 7919, a, b, c, i)
      .toString(16)
      .padStart(8, "0");
  return out;
}

/** A 77-digit decimal string (first digit non-zero), like Polymarket's CLOB token ids. */
export function decimalId77(seed: number, salt: number, a = 0, b = 0): string {
  let out = String(1 + (hash32(seed, salt, a, b, 0, 99) % 9));
  let i = 0;
  while (out.length < 77) {
    out += String(hash32(seed, salt + 31 * i, a, b, i, 7) % 1_000_000_000).padStart(9, "0");
    i++;
  }
  return out.slice(0, 77);
}

/** Seeded sequential generator for world building (order-dependent, used once at build time). */
export class Rng {
  private counter = 0;
  constructor(
    private readonly seed: number,
    private readonly salt: number,
  ) {}
  next(): number {
    return rand(this.seed, this.salt, this.counter++);
  }
  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  gauss(): number {
    const u1 = 1 - this.next();
    const u2 = this.next();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
  /** k distinct items (k ≤ items.length), in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const out: T[] = [];
    for (let i = 0; i < k && copy.length > 0; i++) {
      const at = Math.floor(this.next() * copy.length);
      out.push(copy[at]);
      copy[at] = copy[copy.length - 1];
      copy.pop();
    }
    return out;
  }
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\$/g, "")
    .replace(/%/g, "pct")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 120)
    .replace(/-+$/g, "");
}
