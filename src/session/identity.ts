// The transient plugin's name and index, judged by the runtime's own rules before
// anything is dialled or a simulator started: a name the runtime would refuse must
// not cost a connection (or leave a simulator's directory behind).
import { checkExternalName, checkPluginIndex, PluginNameError } from '../api/index.js';
import { SessionError } from './errors.js';

export function checkIdentity(name: string, index: string): void {
  try {
    checkPluginIndex(index);
  } catch (err) {
    if (err instanceof PluginNameError)
      throw new SessionError(
        'bad-identity',
        `--plugin-index ${JSON.stringify(index)}: ${err.message}: give two digits such as 99`,
        { cause: err },
      );
    throw err;
  }
  try {
    checkExternalName(name);
  } catch (err) {
    if (err instanceof PluginNameError) {
      throw new SessionError(
        'bad-identity',
        `--plugin-name ${JSON.stringify(name)}: ${err.message}: use letters, digits and _ . + - only`,
        { cause: err },
      );
    }
    throw err;
  }
}
