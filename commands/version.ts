import { BaseCommand, outputFlag, versionInfo } from '../src/cli/index.js';
import { output } from '../src/output/index.js';
import { versionView } from '../src/views/index.js';

export default class Version extends BaseCommand<typeof Version> {
  static override summary = 'Print the versions of nrictl, the NRI API it speaks and Node.';

  static override description = `The NRI API version is the containerd/nri release whose wire schema nrictl speaks; its plugin SDK sends it when it registers (runtimes of NRI v0.12 and newer log it). Node is the one running nrictl, with its platform.

nrictl --version (or -v) prints the short form, one line for scripts: nrictl/VERSION PLATFORM-ARCH node-NODE.`;

  static override examples = [
    { description: 'For people', command: '<%= config.bin %> <%= command.id %>' },
    { description: 'For a bug report or a script', command: '<%= config.bin %> <%= command.id %> -o json' },
  ];

  static override flags = { output: outputFlag(['table', 'json', 'yaml']) };

  protected override async execute() {
    return output(versionInfo(this.config.version), versionView);
  }
}
