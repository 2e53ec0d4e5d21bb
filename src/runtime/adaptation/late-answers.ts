// What the Go runtime does with a plugin's answer that comes at its request's deadline.
import type { LateAnswerRule } from '../../ttrpc/index.js';

/**
 * How late the Go runtime's deadline takes effect. Its timers wake from epoll, which waits
 * in whole milliseconds, and the ttrpc call's select runs on a goroutine scheduled after
 * that: containerd 2.3.4 on the kit logged "failed to synchronize plugin: context deadline
 * exceeded" 1.6 to 2.1 ms after its 2 s deadline, in each of 5 timeouts measured.
 */
export const GO_DEADLINE_SLACK_MS = 2;

/**
 * An answer that lands within the slack races the deadline's timer, and either may be seen
 * first: critest holds Synchronize for exactly the request timeout, and containerd 2.3.4
 * kept its plugin in some runs and dropped it in others on an idle machine. The simulator
 * lets such an answer win as often as lose, so that it shows both outcomes as the runtime
 * does, rather than one every time.
 */
export const GO_LATE_ANSWERS: LateAnswerRule = Object.freeze({
  windowMs: GO_DEADLINE_SLACK_MS,
  take: () => Math.random() < 0.5,
});

/** A runtime that takes no answer after its deadline, however soon after. */
export const NO_LATE_ANSWERS: LateAnswerRule = Object.freeze({ windowMs: 0, take: () => false });
