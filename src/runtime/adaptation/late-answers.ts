// What the Go runtime does with a plugin's answer that comes at its request's deadline.
import type { LateAnswerRule } from '../../ttrpc/index.js';

/**
 * How late the Go runtime's deadline takes effect. Its timers wake from epoll, which waits
 * in whole milliseconds, and the ttrpc call's select runs on a goroutine scheduled after
 * that: containerd 2.3.4 on the kit logged "failed to synchronize plugin: context deadline
 * exceeded" 1.0 to 2.2 ms after the 2 s from its "synchronizing plugin" line, in each of 5
 * timeouts measured.
 */
export const GO_DEADLINE_SLACK_MS = 2;

/**
 * The deadline takes effect at some point within the slack (epoll's whole milliseconds
 * put the timer's wake-up anywhere in it), and an answer read before that point wins:
 * critest holds Synchronize for exactly the request timeout, and containerd 2.3.4 kept its
 * plugin in some runs and dropped it in others on an idle machine. The simulator draws
 * that point afresh for each late answer, so that an answer 0.5 ms late wins three times
 * in four and one 1.9 ms late once in twenty, and both outcomes show, as on the runtime.
 */
export const GO_LATE_ANSWERS: LateAnswerRule = Object.freeze({
  windowMs: GO_DEADLINE_SLACK_MS,
  take: (lateByMs: number) => lateByMs < Math.random() * GO_DEADLINE_SLACK_MS,
});

/** A runtime that takes no answer after its deadline, however soon after. */
export const NO_LATE_ANSWERS: LateAnswerRule = Object.freeze({ windowMs: 0, take: () => false });
