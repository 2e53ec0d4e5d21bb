import { Args, Flags } from '@oclif/core';
import { BaseCommand, outputFlag, usageError } from '../../src/cli/index.js';
import { output } from '../../src/output/index.js';
import { projectView } from '../../src/views/index.js';
import { createProject } from '../../src/scaffold/index.js';

export default class PluginNew extends BaseCommand<typeof PluginNew> {
  static override summary =
    'Create a TypeScript NRI plugin project: the plugin, a scenario, a test that runs it under the simulator.';

  static override description = `Writes a new directory with package.json, tsconfig.json, src/index.ts (a working plugin that annotates containers and sets an environment variable a pod asks for), test/scenario.yaml, test/expect.yaml (what the plugin must have done), test/plugin.test.mjs (runs the built plugin under \`nrictl sim --expect\`, launched from a plugin directory as NN-name), a Containerfile and deploy/daemonset.yaml (the bundle as an external plugin on every node) and a README (also: the bundle in the runtime's plugin directory). Then: cd NAME && npm install && npm test && npm run bundle.

nrictl itself: by default a copy of the nrictl that runs now, packed into the project's vendor/ (package.json: file:vendor/nrictl-VERSION.tgz), so the project installs with no nrictl on the npm registry. --nrictl picks a registry version (^0.1.0) or a path (a packed nrictl-VERSION.tgz or nrictl's package directory, from the current directory) instead.

NAME is the plugin's name without an index: the index is --index, and the bundle is named INDEX-NAME (10-demo). A NAME that starts with an index (10-demo) is refused.

The project is written whole into a hidden sibling directory and renamed into place; an existing non-empty directory is never touched.`;

  static override examples = [
    {
      description: 'Start a plugin',
      command: '<%= config.bin %> <%= command.id %> cpu-pinner && cd cpu-pinner && npm install && npm test',
    },
    {
      description: 'Depend on nrictl from the npm registry instead of a copy in vendor/',
      command: '<%= config.bin %> <%= command.id %> demo --nrictl ^0.1.0',
    },
    {
      description: 'Depend on a packed nrictl',
      command: '<%= config.bin %> <%= command.id %> demo --nrictl ./nrictl-0.1.0.tgz',
    },
  ];

  static override args = {
    name: Args.string({
      description:
        "The plugin's name, such as demo: lower-case letters, digits, '.', '_' and '-', not starting with an index; it also names the npm package.",
      required: true,
    }),
  };

  static override flags = {
    dir: Flags.string({ description: 'Directory to create (default: ./NAME).', helpValue: 'DIR' }),
    index: Flags.string({
      description: 'Two-digit index the test and the bundle give the plugin (NN-name).',
      default: '10',
      helpValue: 'NN',
    }),
    nrictl: Flags.string({
      description:
        'nrictl as package.json depends on it: a registry version (^0.1.0) or a path (./nrictl-0.1.0.tgz); default: a copy of this nrictl in vendor/.',
      helpValue: 'SPEC',
    }),
    output: outputFlag(['table', 'json', 'yaml']),
  };

  protected override async execute() {
    const { args, flags } = this;
    if (!/^\d\d$/.test(flags.index)) throw usageError(`--index ${flags.index}: expected two digits, such as 10`);
    const dev = (this.config.pjson.devDependencies ?? {}) as Record<string, string>;
    const project = await createProject(flags.dir ?? args.name, {
      name: args.name,
      index: flags.index,
      nrictl: flags.nrictl,
      running: this.config.root,
      signal: this.signal,
      // The versions nrictl itself builds with, so an install reuses what its lockfile already pulled.
      typescriptVersion: dev['typescript'] ?? '5.9.3',
      typesNodeVersion: dev['@types/node'] ?? '^20.19.0',
    });
    return output(project, projectView);
  }
}
