// `nrictl help [COMMAND]`: oclif's own help command. It is one of our commands rather than
// a plugin of oclif's so that the build bundles it with our copy of @oclif/core: as a
// plugin it loaded a second, unbundled oclif, and `nrictl help` took half as long again
// as `nrictl --help`.
import type { Command } from '@oclif/core';
import { commands } from '@oclif/plugin-help';

const Help: typeof Command = commands.help;
export default Help;
