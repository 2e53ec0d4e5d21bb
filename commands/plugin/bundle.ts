import { Args, Flags } from '@oclif/core';
import path from 'node:path';
import { BaseCommand } from '../../src/cli/index.js';

export default class PluginBundle extends BaseCommand<typeof PluginBundle> {
  static override summary = 'Bundle a plugin into one executable JavaScript file that a runtime can start as NN-name.';

  static override description = `Uses esbuild to put the plugin, nrictl's SDK and every dependency into one ES module file that starts with #!/usr/bin/env node and has mode 0755. ENTRY may be TypeScript (src/index.ts, the default, else package.json's main).

Pre-started: copy the file into the runtime's plugin directory (/opt/nri/plugins by default) as NN-name, e.g. 10-demo. The runtime starts it with the connection on fd 3 (NRI_PLUGIN_SOCKET=3) and NRI_PLUGIN_NAME / NRI_PLUGIN_IDX set; the SDK reads all three, and otherwise takes index and name from the file name. External: run it with --socket PATH when the plugin passes socketPathFromArgs() to the Stub (the template of nrictl plugin new does), else it dials /var/run/nri/nri.sock.

The host needs node 20.19 or newer on PATH: the bundle is an ES module without extension, which older Node reads as CommonJS.`;

  static override examples = [
    {
      description: 'Bundle a project made by plugin new',
      command: '<%= config.bin %> <%= command.id %> -o build/10-demo',
    },
    {
      description: 'Bundle and try it under the simulator',
      command:
        '<%= config.bin %> <%= command.id %> src/index.ts -o plugins/10-demo && <%= config.bin %> sim --plugin-path plugins --scenario test/scenario.yaml',
    },
  ];

  static override args = {
    entry: Args.string({
      description: "The plugin's entry file (default: src/index.ts, else package.json main).",
      required: false,
    }),
  };

  static override flags = {
    output: Flags.string({
      char: 'o',
      description: 'File to write (an NN-name file name lets a runtime start it).',
      required: true,
      helpValue: 'FILE',
    }),
    minify: Flags.boolean({ description: 'Minify the bundle (smaller; stack traces harder to read).' }),
  };

  public override async run(): Promise<void> {
    const { args, flags: f } = await this.parse(PluginBundle);
    const { bundlePlugin, findEntry } = await import('../../src/bundle/index.js');
    const { parsePluginName } = await import('../../src/api/plugin-name.js');
    const cwd = process.cwd();
    const entry = findEntry(cwd, args.entry);
    const r = await bundlePlugin({ entry, outFile: path.resolve(cwd, f.output), cwd, minify: f.minify });
    const kib = (r.bytes / 1024).toFixed(0);
    this.log(`Wrote ${f.output} (${kib} KiB, mode 0755) from ${path.relative(cwd, r.entry)}.`);
    let named = true;
    try {
      parsePluginName(path.basename(f.output));
    } catch {
      named = false;
    }
    this.log(
      named
        ? `Copy it into the runtime's plugin directory as ${path.basename(f.output)}, or run it as an external plugin: ${f.output} --socket /var/run/nri/nri.sock`
        : `A runtime starts only NN-name files: copy it into the plugin directory as e.g. 10-${path.basename(f.output).replace(/\.[cm]?js$/, '')}, or run it as an external plugin with --socket PATH.`,
    );
  }
}
