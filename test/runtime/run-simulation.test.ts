// runSimulation, the library call behind `nrictl sim`: inputs refused before anything
// starts, and the socket gone on every way out (the end, the signal, an error).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExpectationError } from '../../src/expect/index.js';
import {
  runSimulation,
  SimulationInputError,
  startEmbeddedSimulator,
  type SimulationRecord,
} from '../../src/runtime/index.js';
import { BUSY_MACHINE_MARGIN_MS } from '../support/margin.js';

let dir: string;
let socketPath: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'runsim-'));
  socketPath = path.join(dir, 'nri.sock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const never = new AbortController().signal;

describe('runSimulation', () => {
  it('runs a scenario to its end, says so as a record, and removes its socket', async () => {
    const records: SimulationRecord[] = [];
    const r = await runSimulation({ scenario: 'demo', socketPath, onRecord: (x) => records.push(x) }, never);
    expect(r).toMatchObject({ socketPath, script: { steps: 13, failed: 0 }, stopped: false });
    expect(records[0]).toMatchObject({ type: 'listening', socketPath });
    expect(records.at(-1)).toMatchObject({ type: 'script-done', steps: 13, failed: 0, stopped: false });
    expect(existsSync(socketPath)).toBe(false);
  });

  it('refuses a plugin directory that does not exist before it makes a socket', async () => {
    const err = await runSimulation({ scenario: 'demo', socketPath, pluginDir: path.join(dir, 'nope') }, never).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SimulationInputError);
    expect(err).toMatchObject({ kind: 'not-found', option: 'pluginDir' });
    expect(existsSync(socketPath)).toBe(false);
  });

  it('refuses an expectation after a step the scenario lacks before it makes a socket', async () => {
    const file = path.join(dir, 'expect.yaml');
    const demo = path.resolve(import.meta.dirname, '../../examples/demo.yaml');
    await writeFile(file, `scenario: ${demo}\nexpect:\n  - after: start nothing\n    result: succeeded\n`);
    await expect(runSimulation({ expect: file, socketPath }, never)).rejects.toThrow(ExpectationError);
    expect(existsSync(socketPath)).toBe(false);
  });

  it('stops waiting for plugins at the signal, runs nothing, and removes its socket', async () => {
    const ac = new AbortController();
    const records: SimulationRecord[] = [];
    const run = runSimulation(
      {
        scenario: 'demo',
        socketPath,
        waitForPlugins: 1,
        onRecord: (x) => {
          records.push(x);
          if (x.type === 'listening') setTimeout(() => ac.abort(), 50);
        },
      },
      ac.signal,
    );
    const r = await run;
    expect(r).toMatchObject({ stopped: true });
    expect(r.script).toBeUndefined();
    expect(records.map((x) => x.type)).toEqual(['listening']);
    expect(existsSync(socketPath)).toBe(false);
  });

  it('removes its socket when what drives it fails, and lets the error through', async () => {
    let listening = false;
    const failure = new Error('the prompt broke');
    await expect(
      runSimulation(
        {
          socketPath,
          onRecord: (x) => void (listening ||= x.type === 'listening'),
          drive: () => Promise.reject(failure),
        },
        never,
      ),
    ).rejects.toBe(failure);
    expect(listening).toBe(true);
    expect(existsSync(socketPath)).toBe(false);
  });
});

describe('the embedded simulator (--sim)', () => {
  it('refuses a plugin directory that does not exist (trace --sim demo --plugin-dir /nope)', async () => {
    const err = await startEmbeddedSimulator({
      scenario: 'demo',
      socketDir: dir,
      runtime: { pluginPath: path.join(dir, 'nope') },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SimulationInputError);
    expect(err).toMatchObject({ kind: 'not-found', option: 'pluginDir' });
    expect(existsSync(socketPath)).toBe(false);
  });

  it('stop() ends a script that is in a pause', async () => {
    const file = path.join(dir, 'pause.yaml');
    await writeFile(file, 'pods: [{id: p0, name: web, namespace: shop}]\nsteps:\n  - sleep: 60000\n  - stop-pod: p0\n');
    const sim = await startEmbeddedSimulator({ scenario: file, socketDir: dir });
    const script = sim.runScript();
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await sim.stop();
    await expect(script).resolves.toMatchObject({ steps: 1 });
    // Against the pause's 60 s: stop() did not wait it out.
    expect(Date.now() - started).toBeLessThan(BUSY_MACHINE_MARGIN_MS);
    expect(existsSync(socketPath)).toBe(false);
  });
});
