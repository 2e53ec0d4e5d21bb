// nrictl logs --metrics-addr as users run it: the built CLI against a separate simulator,
// /metrics fetched over HTTP while it logs and parsed as the Prometheus text format.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, startRuntime, type SimHandle } from './nri-cli.js';
import { withUnpacedDemo } from '../support/unpaced-demo.js';
import { get, parsePrometheusText } from './prometheus-text.js';

const sample = (body: string, name: string, labels: Record<string, string> = {}): number | undefined =>
  parsePrometheusText(body).samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;

describe('nrictl logs --metrics-addr', () => {
  let sim: SimHandle;
  beforeAll(async () => {
    sim = await startRuntime({ pods: [{ id: 'pod0', name: 'web', namespace: 'shop' }] });
  });
  afterAll(async () => {
    await sim.stop();
  });

  it('serves event counts by type, drops and registrations while logging, and stops serving at exit', async () => {
    const run = startCli(['logs', '--socket', sim.socketPath, '--metrics-addr', '127.0.0.1:0', '-o', 'json']);
    await run.waitForStderr(/metrics on (http:\S+)/);
    const url = /metrics on (http:\S+)/.exec(run.stderr())![1];
    await run.waitForStderr('Ctrl-C to stop');
    for (let i = 0; i < 3; i++)
      expect((await sim.runtime.createContainer('pod0', { id: `c${i}`, name: `app${i}` })).ok).toBe(true);
    await expect
      .poll(async () => sample((await get(url)).body, 'nrictl_logs_events_total', { event: 'CreateContainer' }), {
        timeout: 5000,
      })
      .toBe(3);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types } = parsePrometheusText(res.body);
    expect(types.get('nrictl_logs_events_total')).toBe('counter');
    expect(sample(res.body, 'nrictl_logs_dropped_lines_total')).toBe(0);
    expect(sample(res.body, 'nrictl_logs_registrations_total')).toBe(1);
    // What was counted is what logs printed: three CreateContainer records.
    const printed = run
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string });
    expect(printed.filter((e) => e.event === 'CreateContainer')).toHaveLength(3);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    await expect(get(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('ends with the --sim script, the server closed, exit 0', async () => {
    const r = await runCli(
      await withUnpacedDemo(['logs', '--sim', 'demo', '--metrics-addr', '127.0.0.1:0', '-o', 'json']),
    );
    expect(r.code).toBe(0);
    const url = /metrics on (http:\S+)/.exec(r.stderr)?.[1];
    expect(url).toBeDefined();
    await expect(get(url!)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('refuses a malformed or busy address with exit 2 before registering', async () => {
    const bad = await runCli(await withUnpacedDemo(['logs', '--sim', 'demo', '--metrics-addr', 'nowhere']));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--metrics-addr "nowhere" is not HOST:PORT/);
    expect(bad.stderr).not.toMatch(/registered with/);
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as net.AddressInfo).port;
      const taken = await runCli(
        await withUnpacedDemo(['logs', '--sim', 'demo', '--metrics-addr', `127.0.0.1:${port}`]),
      );
      expect(taken.code).toBe(2);
      expect(taken.stderr).toMatch(/cannot listen \(EADDRINUSE\); choose another address or port/);
    } finally {
      busy.close();
    }
  });
});
