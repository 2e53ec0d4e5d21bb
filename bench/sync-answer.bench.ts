// How long `nrictl logs` keeps a runtime waiting on Synchronize, by node size: the
// runtime's request timeout (containerd: 2 s) covers this answer, and registration must
// not depend on how many containers the node runs. A peer in this process plays the
// runtime (RegisterPlugin, Configure, then the state split into messages under the
// 4 MiB ttrpc limit, as Go splits it); the logger is the built CLI in a child process.
// Figures: round trip of each Synchronize message as the runtime sees it (send to
// answer, the bytes' transfer included), the final one, and the sum. Asserts nothing.
import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { PLUGIN_SERVICE, nri } from '../src/api/index.js';
import { generateScenario } from '../src/runtime/index.js';
import { MODERN_CONFIGURE, RuntimePeer } from '../test/plugin/peer.js';

const BIN = path.resolve(process.env.NRICTL_BIN ?? 'bin/run.js');
const LIMIT = (4 << 20) - 64 * 1024; // leave room for the ttrpc envelope

/** The state in messages of at most LIMIT bytes each, the pods in the first. */
function split(pods: nri.IPodSandbox[], containers: nri.IContainer[]): nri.ISynchronizeRequest[] {
  const parts: nri.ISynchronizeRequest[] = [];
  let chunk: nri.IContainer[] = [];
  let first = true;
  const size = (p: nri.ISynchronizeRequest): number => nri.SynchronizeRequest.encode(p).finish().length;
  for (const c of containers) {
    chunk.push(c);
    if (chunk.length % 200 === 0 && size({ pods: first ? pods : [], containers: chunk }) > LIMIT * 0.9) {
      parts.push({ pods: first ? pods : [], containers: chunk, more: true });
      chunk = [];
      first = false;
    }
  }
  parts.push({ pods: first ? pods : [], containers: chunk, more: false });
  for (const p of parts) if (size(p) > LIMIT) throw new Error(`a part of ${size(p)} bytes is over the limit`);
  return parts;
}

async function measure(containers: number): Promise<void> {
  const s = generateScenario({ pods: Math.ceil(containers / 5), containersPerPod: 5, seed: 7 });
  const parts = split(s.pods, s.containers.slice(0, containers));
  const bytes = parts.reduce((n, p) => n + nri.SynchronizeRequest.encode(p).finish().length, 0);
  const peer = await RuntimePeer.listen();
  chmodSync(peer.socketPath, 0o600);
  const child = spawn(process.execPath, [BIN, 'logs', '--socket', peer.socketPath, '-o', 'json'], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' },
  });
  try {
    const session = await peer.next();
    await session.registered;
    await session.call('Configure', MODERN_CONFIGURE);
    const rtts: number[] = [];
    // Encoded beforehand: the runtime's own encoding is not the plugin's answer time.
    for (const payload of parts.map((p) => nri.SynchronizeRequest.encode(p).finish())) {
      const started = performance.now();
      await session.client.call(PLUGIN_SERVICE, 'Synchronize', payload, { timeoutMs: 30_000 });
      rtts.push(performance.now() - started);
    }
    const sum = rtts.reduce((a, b) => a + b, 0);
    console.log(
      `${String(containers).padStart(6)} containers (${parts.length} message${parts.length === 1 ? '' : 's'}, ${(bytes / 2 ** 20).toFixed(1)} MiB): ` +
        `final message answered in ${rtts.at(-1)!.toFixed(1)} ms, every message ${sum.toFixed(1)} ms (max ${Math.max(...rtts).toFixed(1)} ms)`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
    await peer.close();
  }
}

for (const n of [1000, 20_000]) {
  // Twice: the first run of each size pays for the child's JIT warm-up like a real start does.
  await measure(n);
  await measure(n);
}
