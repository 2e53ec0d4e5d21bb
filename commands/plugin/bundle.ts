import { Args, Flags } from '@oclif/core';
import { bundlePlugin } from '../../src/bundle/index.js';
import { BaseCommand, fileOf, outputOrLegacyFileFlag } from '../../src/cli/index.js';
import { output } from '../../src/output/index.js';
import { bundleView } from '../../src/views/index.js';

export default class PluginBundle extends BaseCommand<typeof PluginBundle> {
  static override summary = 'Bundle a plugin into one executable JavaScript file that a runtime can start as NN-name.';

  static override description = `Uses esbuild to put the plugin, nrictl's SDK and every dependency into one ES module file that starts with #!/usr/bin/env node and has mode 0755. ENTRY may be TypeScript (src/index.ts, the default, else package.json's main).

Pre-started: copy the file into the runtime's plugin directory (/opt/nri/plugins by default) as NN-name, e.g. 10-demo. The runtime starts it with the connection on fd 3 (NRI_PLUGIN_SOCKET=3) and NRI_PLUGIN_NAME / NRI_PLUGIN_IDX set; the SDK reads all three, and otherwise takes index and name from the file name. External: run it with --socket PATH when the plugin passes socketPathFromArgs() to the Stub (the template of nrictl plugin new does), else it dials /var/run/nri/nri.sock.

The host needs node 20.19 or newer on PATH: the bundle is an ES module without extension, which older Node reads as CommonJS.

-o is the output format, as in every command. Until the next release, -o FILE (a value that is no format name) still means --out FILE, with a warning.`;

  static override examples = [
    {
      description: 'Bundle a project made by plugin new',
      command: '<%= config.bin %> <%= command.id %> --out build/10-demo',
    },
    {
      description: 'Bundle and try it under the simulator',
      command:
        '<%= config.bin %> <%= command.id %> src/index.ts --out plugins/10-demo && <%= config.bin %> sim --plugin-path plugins --scenario test/scenario.yaml',
    },
    {
      description: 'What was written, for a script',
      command: '<%= config.bin %> <%= command.id %> --out 10-demo -o json',
    },
  ];

  static override args = {
    entry: Args.string({
      description: "The plugin's entry file (default: src/index.ts, else package.json main).",
      required: false,
    }),
  };

  static override flags = {
    out: Flags.string({
      description: 'File to write (required; an NN-name file name lets a runtime start it).',
      helpValue: 'FILE',
    }),
    output: outputOrLegacyFileFlag(['table', 'json', 'yaml'], '--out'),
    minify: Flags.boolean({ description: 'Minify the bundle (smaller; stack traces harder to read).' }),
  };

  protected override async execute() {
    const out = fileOf('--out', this.flags.out, this.flags.output, 'build/10-demo');
    const result = await bundlePlugin({ entry: this.args.entry, out, cwd: process.cwd(), minify: this.flags.minify });
    return output(result, bundleView);
  }
}
