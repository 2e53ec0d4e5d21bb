// --cri-socket, the flag a command that talks to the runtime's CRI shares: given, or from
// crictl's CONTAINER_RUNTIME_ENDPOINT, in either of crictl's spellings; unset, the node's
// runtime config decides (locateCriSocket).
import { Parser } from '@oclif/core';
import { afterEach, expect, it } from 'vitest';
import { criSocketFlag } from '../../src/cli/flags.js';
import { locateCriSocket } from '../../src/cri/index.js';

const saved = process.env.CONTAINER_RUNTIME_ENDPOINT;
afterEach(() => {
  if (saved === undefined) delete process.env.CONTAINER_RUNTIME_ENDPOINT;
  else process.env.CONTAINER_RUNTIME_ENDPOINT = saved;
});

async function parsed(argv: string[]): Promise<string | undefined> {
  const { flags } = await Parser.parse(argv, { flags: { 'cri-socket': criSocketFlag } });
  return flags['cri-socket'];
}

it('takes a path or unix://PATH, from the flag or from CONTAINER_RUNTIME_ENDPOINT', async () => {
  delete process.env.CONTAINER_RUNTIME_ENDPOINT;
  expect(await parsed([])).toBeUndefined();
  expect(await parsed(['--cri-socket', '/run/k/cri.sock'])).toBe('/run/k/cri.sock');
  process.env.CONTAINER_RUNTIME_ENDPOINT = 'unix:///run/crictl/cri.sock';
  const fromEnv = await parsed([]);
  expect(locateCriSocket({ criSocket: fromEnv }).socketPath).toBe('/run/crictl/cri.sock');
  expect(await parsed(['--cri-socket', '/run/k/cri.sock'])).toBe('/run/k/cri.sock');
});
