// Writes the files of one vs-go-events run to a directory, and prints the two command
// lines, for profiling either runtime by hand (perf, node --cpu-prof) on exactly the
// bench's work:
//   NRI_GO_REFERENCE=DIR node --import tsx bench/vs-go/write-workload.ts OUT_DIR PLUGINS CYCLES
import path from 'node:path';
import { simArgv } from './nrictl.js';
import { requireGoReference } from './reference.js';
import { refrtArgs } from './refrt.js';
import { writePluginDir, writeRefrtFiles, writeSimScenario } from './workload.js';

const [out, plugins, cycles] = [process.argv[2], Number(process.argv[3] ?? 1), Number(process.argv[4] ?? 3000)];
if (!out) {
  console.error('usage: write-workload.ts OUT_DIR [PLUGINS [CYCLES]]');
  process.exit(2);
}
const ref = requireGoReference();
const f = {
  pluginDir: path.join(out, 'plugins'),
  sim: path.join(out, 'sim.json'),
  scenario: path.join(out, 'refrt-scenario.json'),
  script: path.join(out, 'refrt-script.json'),
};
await writePluginDir(f.pluginDir, ref.plugin('template'), plugins);
await writeSimScenario(f.sim, cycles);
await writeRefrtFiles(f.scenario, f.script, cycles);
console.log(
  `${ref.refrt} ${refrtArgs({ scenario: f.scenario, script: f.script, pluginDir: f.pluginDir, waitPlugins: plugins, exitAfterScript: true }).join(' ')}`,
);
console.log(
  `${process.execPath} ${simArgv({ scenario: f.sim, pluginDir: f.pluginDir, waitForPlugins: plugins, pluginOutput: 'none', output: 'json' }).join(' ')}`,
);
