// Whether other users can reach a directory: the tests of who may reach a socket or run
// nrictl as an ordinary user need one, and a private TMPDIR (a 0700 directory, as
// systemd's PrivateTmp or XDG_RUNTIME_DIR give) is not one. Shared by the global set-up
// (reachable-setup.ts), which picks the place, and nothing else: tests ask reachable.ts.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Why other users (and the members of a directory's group) cannot reach `dir` as the
 * tests assume, or undefined when they can: every directory from / down to it lets group
 * and others pass, none lets them replace what is in it (unless sticky, as /tmp), and
 * each belongs to root or to us (as doctor would judge the way to a socket).
 */
export function whyOthersCannotReach(dir: string): string | undefined {
  let at: string;
  try {
    at = realpathSync(dir);
  } catch (err) {
    return `${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  const uid = process.getuid?.();
  for (;;) {
    const st = statSync(at);
    const mode = (st.mode & 0o7777).toString(8).padStart(4, '0');
    if ((st.mode & 0o011) !== 0o011) return `${at} is ${mode}: other users cannot pass it`;
    if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) return `${at} is ${mode}: other users can write to it`;
    if (st.uid !== 0 && st.uid !== uid) return `${at} belongs to uid ${st.uid}`;
    const up = path.dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}
