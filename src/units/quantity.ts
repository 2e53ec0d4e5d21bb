// Byte quantities as people and Kubernetes write them. Formatting uses binary
// units (the way memory limits are chosen); parsing accepts the Kubernetes
// quantity syntax, so a value copied from a pod spec works in `nrictl update`.

import type { ErrorKind } from '../errors/index.js';
const BINARY_UNITS = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;

/**
 * Bytes in the largest binary unit that keeps the number at least 1: 536870912 ->
 * "512Mi", 1610612736 -> "1.5Gi", 1000 -> "1000". Exact values print without
 * decimals; others with one (rounded), so the column stays narrow.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const sign = bytes < 0 ? '-' : '';
  let n = Math.abs(bytes);
  if (n < 1024) return `${sign}${n}`;
  let unit = -1;
  while (n >= 1024 && unit < BINARY_UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  const text = Number.isInteger(n) ? String(n) : n.toFixed(1).replace(/\.0$/, '');
  return `${sign}${text}${BINARY_UNITS[unit]}`;
}

export class QuantityError extends Error {
  readonly kind: ErrorKind = 'usage';
  readonly input: string;
  constructor(input: string, reason: string) {
    super(`invalid quantity '${input}': ${reason}`);
    this.name = 'QuantityError';
    this.input = input;
  }
}

// Multipliers as exact integers: numerator over a power of ten, so that 0.1k is
// exactly 100 and not 100.00000000000001 rounded up to 101.
const MULTIPLIERS: Record<string, bigint> = {
  '': 1n,
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
  k: 10n ** 3n,
  M: 10n ** 6n,
  G: 10n ** 9n,
  T: 10n ** 12n,
  P: 10n ** 15n,
  E: 10n ** 18n,
};

// The suffixes people type from other tools, and what Kubernetes wants instead.
const SUGGESTIONS: Record<string, string> = {
  m: "in Kubernetes notation 'm' means thousandths (512m is half a byte); use Mi (mebibytes) or M (megabytes)",
  u: "'u' means millionths; use Ki, Mi, Gi or k, M, G",
  n: "'n' means billionths; use Ki, Mi, Gi or k, M, G",
  K: "Kubernetes has no 'K'; use Ki (1024) or k (1000)",
  B: 'Kubernetes quantities have no byte suffix; write plain bytes (e.g. 512)',
};

function suggestionFor(suffix: string): string | undefined {
  if (SUGGESTIONS[suffix]) return SUGGESTIONS[suffix];
  const withoutB = suffix.replace(/[bB]$/, '');
  if (withoutB !== suffix && withoutB in MULTIPLIERS) return `drop the '${suffix.slice(-1)}': write ${withoutB}`;
  if (/^[kmgtpe]i?b?$/i.test(suffix)) {
    const letter = suffix[0].toUpperCase();
    return `suffixes are case-sensitive: use ${letter}i (binary) or ${letter === 'K' ? 'k' : letter} (decimal)`;
  }
  return undefined;
}

const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+)|([a-zA-Z]*))$/;
const KNOWN = 'known suffixes: Ki, Mi, Gi, Ti, Pi, Ei (binary) and k, M, G, T, P, E (decimal)';

/**
 * Parses a Kubernetes quantity into whole bytes: "512Mi", "2G", "1.5Gi", "1e9",
 * "1048576". Fractions of a byte round up, as Kubernetes does. Negative values
 * only with allowNegative (a memory limit of -1 means "unlimited" to the kernel).
 */
export function parseQuantity(input: string, opts: { allowNegative?: boolean } = {}): number {
  const text = input.trim();
  if (text === '') throw new QuantityError(input, 'empty; write a size such as 512Mi or 2G');
  const m = QUANTITY.exec(text);
  const [, sign = '', whole = '', fraction = '', exponent, suffix = ''] = m ?? [];
  if (!m || whole + fraction === '') {
    throw new QuantityError(input, `expected a number and an optional suffix, e.g. 512Mi (${KNOWN})`);
  }
  if (exponent === undefined && !(suffix in MULTIPLIERS)) {
    const hint = suggestionFor(suffix);
    throw new QuantityError(input, `unknown suffix '${suffix}'${hint ? `: ${hint}` : ''} (${KNOWN})`);
  }
  if (exponent !== undefined && Math.abs(Number(exponent)) > 30)
    throw new QuantityError(input, 'exponent out of range');
  // value = mantissa * numerator / denominator, all integers.
  const mantissa = BigInt(whole + fraction || '0');
  let numerator = exponent === undefined ? MULTIPLIERS[suffix] : 1n;
  let denominator = 10n ** BigInt(fraction.length);
  if (exponent !== undefined) {
    const e = BigInt(exponent);
    if (e >= 0n) numerator *= 10n ** e;
    else denominator *= 10n ** -e;
  }
  const product = mantissa * numerator;
  const bytes = product / denominator + (product % denominator === 0n ? 0n : 1n);
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) throw new QuantityError(input, 'too large to be a byte count');
  if (sign === '-' && bytes !== 0n) {
    if (!opts.allowNegative) throw new QuantityError(input, 'negative sizes are not allowed here');
    return -Number(bytes);
  }
  return Number(bytes);
}
