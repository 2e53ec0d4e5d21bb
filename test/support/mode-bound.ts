// Child processes that file modes apply to, so that a socket nobody may write really
// refuses them. A normal user already is one. Root passes through modes by its
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so root's child runs under setpriv without
// those two: still uid 0, so it reads the code wherever the clone lives (under a 0700
// `mktemp -d` too), yet a mode-000 socket is closed to it as to anyone else. The tests
// then check nrictl's answer to EACCES, not which user can read the checkout.
import { spawnSync } from 'node:child_process';

const AS_ROOT = process.getuid?.() === 0;
const DAC_CAPS = '-dac_override,-dac_read_search';
const SETPRIV = ['setpriv', `--inh-caps=${DAC_CAPS}`, `--bounding-set=${DAC_CAPS}`, '--'];

/** Why no mode-bound child can be had here (for the skip reason), or undefined when it can. */
export const MODE_BOUND_UNAVAILABLE: string | undefined =
  !AS_ROOT || spawnSync(SETPRIV[0], [...SETPRIV.slice(1), 'true']).status === 0
    ? undefined
    : 'running as root, and setpriv cannot drop CAP_DAC_OVERRIDE (util-linux setpriv and CAP_SETPCAP are needed)';

/** The command line that runs `command args` as a process file modes apply to. */
export function modeBound(command: string, args: string[]): { command: string; args: string[] } {
  if (MODE_BOUND_UNAVAILABLE) throw new Error(MODE_BOUND_UNAVAILABLE);
  return AS_ROOT ? { command: SETPRIV[0], args: [...SETPRIV.slice(1), command, ...args] } : { command, args };
}
