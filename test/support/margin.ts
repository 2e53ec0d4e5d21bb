// How late a deadline may come on a busy machine and still count as kept. With both cores
// of a 2-core machine pinned by other work, a timer or a child process has been seen to run
// seconds behind. A test of a deadline allows this much past it, and picks its deadline so
// that what it guards against (no deadline at all: a hang, or a default that is longer) is
// further off still; where nothing would be further off, it asserts no time at all.
export const BUSY_MACHINE_MARGIN_MS = 5_000;
