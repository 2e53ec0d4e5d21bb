// Start-up of a short run, whole processes timed from outside in alternating rounds:
// `nrictl sim` with a two-step scenario (create, which sends CreateContainer and
// PostCreateContainer, then remove) and one pre-started Go template plugin, against
// `node -e 0` (Node's own start-up, the floor for anything in Node) and refrt doing the
// same calls with the same plugin. Also `sim --expect` on that scenario (a plugin
// author's test run), an empty sim run without plugins, and `nrictl --version`.
//
// Knobs: VS_GO_STARTUP_ROUNDS (11), VS_GO_NODE_FLAGS (node flags for nrictl's process).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { goReferenceOrSkip } from './vs-go/reference.js';
import { nrictlArgv, simArgv } from './vs-go/nrictl.js';
import { refrtArgs } from './vs-go/refrt.js';
import { startupPhases } from './vs-go/startup-phases.js';
import { formatSummary, timeInTurns, type Command } from './vs-go/whole-process.js';
import { writePluginDir, writeRefrtFiles } from './vs-go/workload.js';

const ref = goReferenceOrSkip('vs-go-startup');
const ROUNDS = Number(process.env.VS_GO_STARTUP_ROUNDS ?? 11);
const dir = mkdtempSync(path.join(os.tmpdir(), 'vs-go-start-'));
try {
  const pluginDir = path.join(dir, 'plugins');
  await writePluginDir(pluginDir, ref.plugin('template'), 1);
  const scenario = path.join(dir, 'two-steps.yaml');
  writeFileSync(
    scenario,
    'pods:\n  - {id: pod0, name: pod0, namespace: bench}\nsteps:\n  - create: {id: c0, pod: pod0, name: c0}\n  - remove: c0\n',
  );
  const empty = path.join(dir, 'empty.yaml');
  writeFileSync(empty, 'pods: []\n');
  const expect = path.join(dir, 'expect.yaml');
  writeFileSync(
    expect,
    `scenario: ${scenario}\nno-plugin-failures: true\nexpect:\n  - after: create c0\n    result: succeeded\n`,
  );
  const refrtScenario = path.join(dir, 'refrt-scenario.json');
  const refrtScript = path.join(dir, 'refrt-script.json');
  await writeRefrtFiles(refrtScenario, refrtScript, 1);

  const node = (label: string, args: string[]): Command => ({ label, command: process.execPath, args });
  const commands: Command[] = [
    node('node -e 0', ['-e', '0']),
    {
      label: 'refrt, 1 Go template plugin, Create+PostCreate+Remove',
      command: ref.refrt,
      args: refrtArgs({
        scenario: refrtScenario,
        script: refrtScript,
        pluginDir,
        waitPlugins: 1,
        exitAfterScript: true,
      }),
    },
    node('nrictl sim two-steps, 1 Go template plugin', simArgv({ scenario, pluginDir })),
    node('  the same, --wait-for-plugins 1', simArgv({ scenario, pluginDir, waitForPlugins: 1 })),
    node(
      '  the same, --wait-for-plugins 1 --plugin-output none',
      simArgv({ scenario, pluginDir, waitForPlugins: 1, pluginOutput: 'none' }),
    ),
    node('nrictl sim --expect, 1 Go template plugin', simArgv({ expect, pluginDir })),
    node('nrictl sim, empty scenario, no plugins', simArgv({ scenario: empty })),
    node('nrictl --version', nrictlArgv('--version')),
  ];
  console.log(
    `start-up, whole processes, ${ROUNDS} rounds in turns after one warm-up round; medians (min-max); ${os.cpus().length} CPUs`,
  );
  const [base, ...rest] = timeInTurns(commands, ROUNDS);
  console.log(formatSummary(base));
  for (const s of rest) console.log(formatSummary(s, base));

  console.log(
    `\nwhere the time of \`nrictl sim two-steps --wait-for-plugins 1 --calls -o json\` goes, medians of ${ROUNDS} runs (event times, ms resolution)`,
  );
  const phases = await startupPhases(
    simArgv({ scenario, pluginDir, waitForPlugins: 1, output: 'json', calls: true }),
    ROUNDS,
  );
  for (const [label, ms] of phases) console.log(`  ${label.padEnd(70)} ${ms.toFixed(0).padStart(4)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
