/** "1 check", "2 checks": a count with its noun, for the nouns English makes plural with an s. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
