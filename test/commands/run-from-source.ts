// Runs one nrictl command from the TypeScript sources in its own process, as bin/run.js
// would after a build: the real oclif parsing, output and exit code, without needing dist/.
// Usage: node --import tsx test/commands/run-from-source.ts <command> [args...]
import { handle } from '@oclif/core';

const [id, ...argv] = process.argv.slice(2);
const mod = (await import(`../../commands/${id}.ts`)) as {
  default: { run(argv: string[], opts: string): Promise<unknown> };
};
try {
  await mod.default.run(argv, import.meta.url);
} catch (err) {
  await handle(err as Error);
}
