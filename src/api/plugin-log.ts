// Where a plugin bundled by nrictl logs when a runtime starts it without a terminal
// (src/plugin/log.ts), shared with the checks that tell an operator where to look.
/** stderr, journal or file: where to log, whatever the SDK's rules would pick. */
export const PLUGIN_LOG_ENV = 'NRI_PLUGIN_LOG';
/** The directory of log files (default /var/log/nri). */
export const PLUGIN_LOG_DIR_ENV = 'NRI_PLUGIN_LOG_DIR';
/** The journal's stream socket (default /run/systemd/journal/stdout). */
export const JOURNAL_SOCKET_ENV = 'NRI_PLUGIN_JOURNAL_SOCKET';
export const DEFAULT_PLUGIN_LOG_DIR = '/var/log/nri';
export const DEFAULT_JOURNAL_SOCKET = '/run/systemd/journal/stdout';
/** A log file past this size is renamed to NAME.log.1 (the previous .1 goes): at most twice this on disk. */
export const LOG_FILE_MAX_BYTES = 10 << 20;
/** The bundle's second line begins so: how validate knows a file nrictl bundled. */
export const BUNDLE_MARK = '// Bundled by nrictl plugin bundle';
/** A line of the bundle's prelude, from the nrictl whose SDK logs to the journal or a file. */
export const BUNDLE_LOG_MARK = '// nrictl-plugin-log: journal, else file';
