// `nrictl plugin new`: the project written, where its nrictl comes from, and what to do
// next: each line runs as printed (the second in the project's directory, after the first).
import { isAbsolute } from 'node:path';
import type { CreatedProject } from '../scaffold/index.js';
import type { View } from '../output/index.js';

/** "./demo", or the absolute path given. */
const shown = (dir: string): string => (isAbsolute(dir) ? dir : `./${dir}`);

function source(p: CreatedProject): string {
  const where = p.nrictl.replace(/^file:/, '');
  if (p.nrictlFrom === 'vendored') return `with a copy of this nrictl in ${where}`;
  if (p.nrictlFrom === 'path') return `depending on nrictl at ${where}`;
  return `depending on nrictl ${p.nrictl} from the npm registry`;
}

export const projectView: View<CreatedProject> = {
  text: (p) =>
    [
      `Created ${p.name} in ${shown(p.dir)}, ${source(p)}. Next:`,
      `  cd ${shown(p.dir)} && npm install && npm test`,
      `  npm run bundle    # build/${p.index}-${p.name}; to deploy it, see README.md`,
    ].join('\n'),
  data: (p) => p,
};
