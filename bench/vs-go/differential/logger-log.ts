// Reads the log file of the NRI sample logger: for every CreateContainer it logs the pod
// and the container it was handed, as YAML, one line per log entry
// (`time=... level=info msg="CreateContainer:    id: c0"`). The container tells what the
// plugin saw, after the plugins before it adjusted it.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { GoJson } from '../../../test/runtime/differential/fixture.js';

/** logrus writes msg="..." with Go's quoting, or msg=word when nothing needs quoting. */
function message(line: string): string | undefined {
  const m = /\bmsg=("(?:[^"\\]|\\.)*"|\S+)/.exec(line);
  if (!m) return undefined;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : m[1];
}

/** The containers the logger was handed in CreateContainer, in order. */
export function containersSeen(file: string): GoJson[] {
  const seen: GoJson[] = [];
  let yaml: string[] | undefined;
  const flush = (): void => {
    if (yaml) seen.push(YAML.parse(yaml.join('\n')) as GoJson);
    yaml = undefined;
  };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const msg = message(line);
    if (msg === undefined) continue;
    if (msg === 'CreateContainer: container:') {
      flush();
      yaml = [];
    } else if (yaml && msg.startsWith('CreateContainer:    ')) {
      yaml.push(msg.slice('CreateContainer:    '.length));
    } else flush();
  }
  flush();
  return seen;
}
