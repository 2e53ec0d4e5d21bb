/**
 * How many columns the output may use, or undefined for "no limit".
 *
 * On a terminal: COLUMNS when it is a positive whole number (the user's explicit word),
 * else the terminal's own width. Into a pipe or a file there is no width, whatever
 * COLUMNS says: the output is laid out without any limit, so that `| grep` and `| cut`
 * see one record a line and nothing is wrapped to a guessed width.
 */
export function outputColumns(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  if (!stream.isTTY) return undefined;
  const fromEnv = env.COLUMNS?.trim();
  if (fromEnv && /^\d+$/.test(fromEnv) && Number(fromEnv) > 0) return Number(fromEnv);
  if (typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  return undefined;
}
