// A pre-started Go plugin as the runtime launches it: the connected socket is fd 3.
// It says on stderr how many configuration bytes it read, which the simulator relays.
import net from 'node:net';
import { goPlugin } from './go-nri.js';

const plugin = goPlugin(
  new net.Socket({ fd: Number(process.env.NRI_PLUGIN_SOCKET ?? 3) }),
  process.env.NRI_PLUGIN_NAME ?? 'go',
  process.env.NRI_PLUGIN_IDX ?? '10',
);
let said = false;
function report(): void {
  if (said) return;
  if (plugin.readErrors.length > 0) process.stderr.write(`error receiving message: ${plugin.readErrors[0].message}\n`);
  else if (plugin.configure)
    process.stderr.write(`configured with ${plugin.configure.config.length} bytes of configuration\n`);
  else return;
  said = true;
}
const timer = setInterval(report, 5);
plugin.mux.trunk.on('close', () => {
  clearInterval(timer);
  report();
  process.exitCode = 0;
});
