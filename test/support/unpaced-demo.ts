// The demo scenario (examples/demo.yaml) without its pauses: the same pods, containers
// and steps. The pauses (1.7 s in all) are for people watching it unfold; a test that
// reads what a run printed need not wait through them, and a run that does not wait can
// run in the test's own process (test/commands/nri-cli.ts runCli). Made once per test
// run from the shipped file, so that the two never differ in anything but the pauses.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from './once.js';

const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/demo.yaml');

/** The path of the unpaced copy of examples/demo.yaml. */
export function unpacedDemo(): Promise<string> {
  return once('unpaced-demo', (dir) => {
    const text = readFileSync(DEMO, 'utf8');
    const unpaced = text.replace(/^ *- sleep: \d+\n/gm, '');
    if (unpaced === text) throw new Error(`${DEMO} has no "- sleep: N" step any more: review unpaced-demo.ts`);
    const file = path.join(dir, 'demo-unpaced.yaml');
    writeFileSync(file, unpaced);
    return file;
  });
}

/**
 * `args` with the demo scenario they play (`--sim demo`, `sim demo`, or the shipped file
 * examples/demo.yaml) replaced by its unpaced copy; other arguments, such as the project
 * name of `plugin new demo`, as they are.
 */
export async function withUnpacedDemo(args: readonly string[]): Promise<string[]> {
  const isDemo = (a: string): boolean => a === 'demo' || a === 'examples/demo.yaml' || a === DEMO;
  const scenarioAt = (i: number): boolean => args[i - 1] === '--sim' || (args[0] === 'sim' && i === 1);
  if (!args.some((a, i) => isDemo(a) && scenarioAt(i))) return [...args];
  const unpaced = await unpacedDemo();
  return args.map((a, i) => (isDemo(a) && scenarioAt(i) ? unpaced : a));
}
