/**
 * How many columns the output may use, or undefined for "no limit".
 *
 * COLUMNS, when set to a positive whole number, wins (as in GNU ls and most Unix tools:
 * the user's explicit word, and what scripts and tests set). Otherwise a terminal's own
 * width. A pipe or a file has no width: the output is laid out without any limit, and
 * nothing is wrapped to a guessed one.
 */
export function outputColumns(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  const fromEnv = env.COLUMNS?.trim();
  if (fromEnv && /^\d+$/.test(fromEnv) && Number(fromEnv) > 0) return Number(fromEnv);
  if (stream.isTTY && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  return undefined;
}
