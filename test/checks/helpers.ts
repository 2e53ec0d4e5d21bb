import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const AS_ROOT = process.getuid?.() === 0;
/** How notRootOwned made its files belong to someone else, for test names. */
export const NOT_ROOT_HOW = AS_ROOT ? 'chowned to uid 1234' : `created by uid ${process.getuid?.()}`;

/**
 * Makes the paths belong to a uid other than root: root chowns them to 1234, anyone
 * else already owns what it created. The owner checks then run either way.
 */
export function notRootOwned(...paths: string[]): void {
  for (const path of paths) {
    if (AS_ROOT) chownSync(path, 1234, 1234);
    else if (statSync(path).uid === 0)
      throw new Error(`${path} belongs to root; a test that is not root cannot give it away`);
  }
}

export function tempDir(prefix = 'nrick-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `text` at `name` under `dir`, making the directories between; returns the path. */
export function writeUnder(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A real ELF file: a copy of the head of node's own binary is enough for exec sniffing. */
export function writeElf(path: string, mode = 0o755): void {
  writeFileSync(path, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56)]));
  chmodSync(path, mode);
}

export function writeScript(path: string, shebang: string, mode = 0o755): void {
  writeFileSync(path, `${shebang}\nexit 0\n`);
  chmodSync(path, mode);
}

export function mkfifo(path: string, mode = 0o644): void {
  execFileSync('mkfifo', ['-m', mode.toString(8), path]);
}

export async function listenSocket(path: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}

export function codesOf(findings: Array<{ path: string; code: string; severity: string }>, path?: string): string[] {
  return findings
    .filter((f) => path === undefined || f.path === path)
    .map((f) => `${f.severity}:${f.code}`)
    .sort();
}

/** A node's plugins/ and conf.d/ under `root`, both 0755 whatever the umask. */
export function pluginAndConfDirs(root: string): { plugins: string; conf: string } {
  const plugins = join(root, 'plugins');
  const conf = join(root, 'conf.d');
  for (const d of [plugins, conf]) {
    mkdirSync(d);
    chmodSync(d, 0o755);
  }
  return { plugins, conf };
}
