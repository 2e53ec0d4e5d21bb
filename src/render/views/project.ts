// `nrictl plugin new`: the project written, and what to do next.
import { isAbsolute } from 'node:path';
import type { CreatedProject } from '../../scaffold/index.js';
import type { View } from '../output.js';

/** "./demo", or the absolute path given. */
const shown = (dir: string): string => (isAbsolute(dir) ? dir : `./${dir}`);

export const projectView: View<CreatedProject> = {
  text: (p) => `Created ${p.name} in ${shown(p.dir)}. Next:\n  cd ${shown(p.dir)} && npm install && npm test`,
  data: (p) => p,
};
