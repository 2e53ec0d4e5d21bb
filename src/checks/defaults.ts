// Where the runtimes look when their configuration says nothing (containerd, CRI-O and
// iSulad agree): what every check compares a configuration against. The socket path is
// written once, in src/api, since the plugin SDK dials it too.
export const DEFAULT_PLUGIN_PATH = '/opt/nri/plugins';
export const DEFAULT_PLUGIN_CONFIG_PATH = '/etc/nri/conf.d';
export { DEFAULT_SOCKET_PATH } from '../api/socket-path.js';
