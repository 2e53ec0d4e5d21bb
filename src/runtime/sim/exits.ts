// Containers that exit by themselves: the simulator runs no process, so it knows them by
// their command. The pause image's `/pause -v` prints its version and exits 0; a shell's
// `sh -c "exit N"` exits N. Everything else runs until it is stopped.

/** The exit code of a command that ends by itself, or undefined for one that runs until stopped. */
export function exitCodeOf(argv: readonly string[]): number | undefined {
  const [cmd, ...args] = argv;
  if (cmd === undefined) return undefined;
  const base = cmd.split('/').pop();
  if (base === 'pause') return args.includes('-v') ? 0 : undefined;
  if ((base === 'sh' || base === 'bash') && args[0] === '-c') {
    const m = /^\s*exit\s+(\d{1,3})\s*$/.exec(args[1] ?? '');
    if (m) return Number(m[1]) & 255;
  }
  return undefined;
}
