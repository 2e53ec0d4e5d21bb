// A plugin launched the way a runtime launches one: a real child process that finds its
// connection on fd 3 and its identity in the environment (or in its file name).
import { spawn, type ChildProcess } from 'node:child_process';
import type net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Event, eventBit, nri } from '../../src/api/index.js';
import { MODERN_CONFIGURE, PeerSession } from './peer.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures/55-fd-plugin.ts');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function launch(identity: Record<string, string>): {
  child: ChildProcess;
  session: PeerSession;
  output: () => string;
  exited: Promise<number | null>;
} {
  const env: NodeJS.ProcessEnv = { ...process.env, NRI_PLUGIN_SOCKET: '3', ...identity };
  if (!identity.NRI_PLUGIN_NAME) delete env.NRI_PLUGIN_NAME;
  if (!identity.NRI_PLUGIN_IDX) delete env.NRI_PLUGIN_IDX;
  // A 'pipe' beyond stdio 0..2 is a unix socketpair in Node: the child sees one end as fd 3.
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env,
    cwd: path.join(here, '../..'),
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const session = new PeerSession(child.stdio[3] as net.Socket);
  return { child, session, output: () => out, exited };
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

describe('a plugin started by the runtime', () => {
  it('registers over the inherited fd with the name and index from its environment, and serves events', async () => {
    const { session, output, exited } = launch({ NRI_PLUGIN_NAME: 'fdplug', NRI_PLUGIN_IDX: '42' });
    const reg = await session.registered;
    expect([reg.pluginIdx, reg.pluginName]).toEqual(['42', 'fdplug']);

    const { configured } = await session.handshake(MODERN_CONFIGURE);
    expect(configured.events).toBe(eventBit(Event.CREATE_CONTAINER));
    await until(() => output().includes('live'));
    expect(output()).toContain(`live 42-fdplug ${eventBit(Event.CREATE_CONTAINER)}`);

    const res = await session.call<nri.CreateContainerResponse>('CreateContainer', {
      pod: { id: 'p' },
      container: { id: 'c', name: 'web' },
    });
    expect(res.adjust?.annotations).toEqual({ 'launched-plugin': '42-fdplug:web' });

    session.close(); // the runtime goes away: the plugin notices and exits
    expect(await exited).toBe(0);
    expect(output()).toMatch(/closed runtime closed the connection \(fd 3 \(NRI_PLUGIN_SOCKET\)\)/);
  });

  it('falls back to its file name for the identity', async () => {
    const { session } = launch({});
    const reg = await session.registered;
    expect([reg.pluginIdx, reg.pluginName]).toEqual(['55', 'fd-plugin']);
    session.close();
  });
});
