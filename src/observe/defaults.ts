// Defaults the command line shows in its flag definitions; imports nothing, so that
// listing the commands at start-up does not load the observe layer.

/** Events `nrictl logs` holds while its output is behind (--buffer). */
export const DEFAULT_LOG_QUEUE_CAPACITY = 1000;
