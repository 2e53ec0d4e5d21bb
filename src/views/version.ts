// `nrictl version`: nrictl's own version, the NRI schema it speaks, and the Node it runs on.
import { alignColumns, type View } from '../output/index.js';

export interface VersionInfo {
  nrictl: string;
  /** The NRI release whose schema nrictl speaks, which its plugin SDK registers with. */
  nriApi: string;
  node: string;
  platform: string;
  arch: string;
}

export const versionView: View<VersionInfo> = {
  text: (v) =>
    alignColumns(
      [
        ['nrictl', v.nrictl],
        ['NRI API', `${v.nriApi} (the plugin SDK registers with it)`],
        ['Node', `${v.node} (${v.platform}-${v.arch})`],
      ],
      '  ',
    ).join('\n'),
  data: (v) => v,
};
