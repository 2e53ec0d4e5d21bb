// The read-execute loop behind `nrictl sim --interactive`: one command per line from a
// stream (a terminal or a pipe) until `quit`, end of input or the caller's signal.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { CommandError, executeCommand, parseCommand, QUIT } from './commands.js';

export { INTERACTIVE_HELP } from './commands.js';
import type { Runtime } from '../../runtime/index.js';

export interface CommandLoopOptions {
  /** Output of a command (a dump, the plugin list, help). */
  print(text: string): void;
  /** One line about a command that failed. */
  printError(text: string): void;
  /** Aborting ends the loop at once (Ctrl-C, SIGTERM), even while a line is being read. */
  signal: AbortSignal;
}

/**
 * Resolves once the loop is over: `quit`, end of input (after every line read so far has
 * run) or the signal. The input is destroyed on the way out: a terminal left open holds
 * the process alive after everything else has stopped.
 */
export async function runCommandLoop(runtime: Runtime, input: Readable, opts: CommandLoopOptions): Promise<void> {
  const rl = createInterface({ input });
  const stop = (): void => rl.close();
  opts.signal.addEventListener('abort', stop, { once: true });
  // A stop that came while the prompt was loading: the listener above will never fire.
  if (opts.signal.aborted) stop();
  try {
    for await (const line of rl) {
      if (opts.signal.aborted) break;
      try {
        const out = await executeCommand(runtime, parseCommand(line));
        if (out === QUIT) break;
        if (out) opts.print(out);
      } catch (err) {
        // A command cut short by stopping says nothing: the runtime is going away on purpose.
        if (opts.signal.aborted) break;
        opts.printError(`${err instanceof CommandError ? '' : 'failed: '}${(err as Error).message}`);
      }
    }
  } finally {
    opts.signal.removeEventListener('abort', stop);
    rl.close();
    input.destroy();
  }
}
