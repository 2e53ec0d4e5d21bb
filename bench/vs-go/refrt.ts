// refrt's command lines (its flags: the nri-go-reference README, "refrt contract").
export interface RefrtRun {
  scenario?: string;
  script?: string;
  pluginDir?: string;
  pluginConfigDir?: string;
  /** Run the script once this many plugins are ready. */
  waitPlugins?: number;
  /** Exit when the script is done; otherwise stay up until SIGTERM. */
  exitAfterScript?: boolean;
  /** Listen for external plugins on this socket. */
  socket?: string;
  requestTimeoutMs?: number;
  /** Every library log line, and each plugin's adjustment (plugin_adjustment). */
  verbose?: boolean;
}

export function refrtArgs(run: RefrtRun): string[] {
  const args = ['--no-stdin'];
  if (run.socket !== undefined) args.push('--socket', run.socket);
  else args.push('--no-external');
  if (run.pluginDir !== undefined) args.push('--plugin-path', run.pluginDir);
  if (run.pluginConfigDir !== undefined) args.push('--plugin-config-path', run.pluginConfigDir);
  if (run.scenario !== undefined) args.push('--scenario', run.scenario);
  if (run.script !== undefined) args.push('--script', run.script);
  if (run.waitPlugins !== undefined) args.push('--wait-plugins', String(run.waitPlugins));
  if (run.exitAfterScript) args.push('--exit-after-script');
  if (run.requestTimeoutMs !== undefined) args.push('--request-timeout-ms', String(run.requestTimeoutMs));
  if (run.verbose) args.push('-v');
  return args;
}
