import { runCli, type CliOutcome } from './nri-cli.js';

// The built command, run to its end in the test's own process (nri-cli.ts runCli): for
// the one-shot commands that read files and print (lint, validate).
export function nrictl(...args: string[]): Promise<CliOutcome> {
  return runCli(args);
}
