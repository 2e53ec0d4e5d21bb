// Where the runtimes look when their configuration says nothing (containerd, CRI-O and
// iSulad agree). Kept in a file that imports only a leaf of src/api, so that the checks
// can quote them without loading anything else. The socket path is written in src/api.
export const DEFAULT_PLUGIN_PATH = '/opt/nri/plugins';
export const DEFAULT_PLUGIN_CONFIG_PATH = '/etc/nri/conf.d';
export { DEFAULT_SOCKET_PATH } from '../api/socket-path.js';
