// `nrictl version` and the top-level -v/--version: nrictl's version from its package,
// the NRI schema the SDK registers with, and the Node running it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SDK_NRI_VERSION } from '../../src/plugin/index.js';
import { assertBuilt, runCli } from './nri-cli.js';

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const platform = `${process.platform}-${process.arch}`;

describe('nrictl version', () => {
  assertBuilt('version');

  it('prints nrictl, the NRI API and Node, aligned', async () => {
    const r = await runCli(['version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `nrictl   ${version}\nNRI API  ${SDK_NRI_VERSION} (the plugin SDK registers with it)\nNode     ${process.version} (${platform})\n`,
    );
  });

  it('-o json and -o yaml carry the same document', async () => {
    const json = await runCli(['version', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const doc: unknown = JSON.parse(json.stdout);
    expect(doc).toEqual({
      nrictl: version,
      nriApi: SDK_NRI_VERSION,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
    });
    const yaml = await runCli(['version', '-o', 'yaml']);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(YAML.parse(yaml.stdout)).toEqual(doc);
  });

  it.each([['-v'], ['--version']])('%s prints the short form on one line', async (flag) => {
    const r = await runCli([flag]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`nrictl/${version} ${platform} node-${process.version}\n`);
  });
});
