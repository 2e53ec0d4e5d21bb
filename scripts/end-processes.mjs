// Ending processes a test run left running: what scripts/run-tests.mjs does after vitest
// ends, and test/support/after-failure.ts after a file that failed. Linux /proc.
import { readFileSync } from 'node:fs';

/**
 * Whether the process runs. One that has exited but that nobody reaps (its parent gone,
 * and an init that does not reap, as in some containers) still takes signal 0: it does
 * not count.
 */
export function isRunning(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ...: comm may hold spaces and parentheses, so read after the last ')'.
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** Ends the processes: SIGTERM, so that each removes what it made, then SIGKILL for what still runs after `graceMs`. */
export async function endProcesses(pids, graceMs) {
  const signal = (pid, sig) => {
    try {
      process.kill(pid, sig);
    } catch {
      // gone
    }
  };
  for (const pid of pids) signal(pid, 'SIGTERM');
  const by = Date.now() + graceMs;
  while (pids.some(isRunning) && Date.now() < by) await new Promise((r) => setTimeout(r, 50));
  for (const pid of pids) if (isRunning(pid)) signal(pid, 'SIGKILL');
}
