// Where the runtimes look when their configuration says nothing (containerd, CRI-O and
// iSulad agree). Kept in a file that imports nothing, so that command help texts can
// quote them without loading the checks.
export const DEFAULT_PLUGIN_PATH = '/opt/nri/plugins';
export const DEFAULT_PLUGIN_CONFIG_PATH = '/etc/nri/conf.d';
export const DEFAULT_SOCKET_PATH = '/var/run/nri/nri.sock';
