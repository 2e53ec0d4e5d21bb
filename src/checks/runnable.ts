import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';

/** What exec() would make of a file, judged by its first bytes. */
export type Runnable =
  | { kind: 'elf' }
  | { kind: 'wasm' }
  | { kind: 'script'; interpreter: string; argument?: string }
  | { kind: 'empty' }
  | { kind: 'unknown' }
  | { kind: 'unreadable'; reason: string };

const HEAD_BYTES = 256;
const WASM_MAGIC = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

export function sniffRunnable(path: string): Runnable {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return { kind: 'unreadable', reason: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, head, 0, HEAD_BYTES, 0);
    return classify(head.subarray(0, n));
  } catch (err) {
    return { kind: 'unreadable', reason: (err as NodeJS.ErrnoException).code ?? String(err) };
  } finally {
    closeSync(fd);
  }
}

function classify(head: Buffer): Runnable {
  if (head.length === 0) return { kind: 'empty' };
  if (head.length >= 4 && head[0] === 0x7f && head.toString('latin1', 1, 4) === 'ELF') return { kind: 'elf' };
  // The newest NRI recognises WASM by the module magic and version 1, not by the name.
  if (head.length >= 8 && head.subarray(0, 8).equals(WASM_MAGIC)) {
    return { kind: 'wasm' };
  }
  if (head.length >= 2 && head[0] === 0x23 && head[1] === 0x21) {
    const end = head.indexOf(0x0a);
    const line = head.toString('latin1', 2, end === -1 ? head.length : end).trim();
    const [interpreter = '', ...rest] = line.split(/[ \t]+/);
    return { kind: 'script', interpreter, argument: rest.length ? rest.join(' ') : undefined };
  }
  return { kind: 'unknown' };
}

/**
 * The Go runtime starts plugins with an environment of only the NRI variables, so a
 * `#!/usr/bin/env cmd` script finds cmd through the C library's default search path.
 */
const DEFAULT_EXEC_PATH = ['/bin', '/usr/bin'];

function isExecutableFile(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

export function findOnDefaultPath(command: string): string | undefined {
  if (command.includes('/')) return existsSync(command) ? command : undefined;
  for (const dir of DEFAULT_EXEC_PATH) {
    if (isExecutableFile(`${dir}/${command}`)) return `${dir}/${command}`;
  }
  return undefined;
}
