import type { ErrorKind } from '../errors/index.js';
import { lstat, open, readlink, rename, unlink, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

export type AtomicContent = string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

export class AtomicWriteError extends Error {
  readonly kind: ErrorKind = 'failed';
  readonly path: string;
  constructor(path: string, step: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`could not write ${path} (${step}): ${reason}; the file was left as it was`, { cause });
    this.name = 'AtomicWriteError';
    this.path = path;
  }
}

/**
 * Writes a file so that readers see either the old content or all of the new,
 * never a part: the data goes to a temporary file in the same directory (rename
 * is atomic only within one file system), is fsynced, then renamed over the
 * target; the directory is fsynced so the rename survives a crash. On any failure
 * the temporary file is removed and the target is untouched.
 *
 * Content may be a string, bytes, or an (async) iterable of chunks, so that a
 * large dump is written as it is rendered rather than held whole in memory.
 * The mode defaults to the existing file's mode, else 0644 less the umask.
 *
 * A symlink is followed, as `>` and cp do: its target gets the new content (written
 * atomically in the target's directory) and the link stays a link. Renaming over the
 * link itself would silently turn it into a plain file and leave its target stale.
 */
export async function writeFileAtomic(
  path: string,
  content: AtomicContent,
  opts: { mode?: number } = {},
): Promise<void> {
  let target: string;
  try {
    target = await followLinks(resolve(path));
  } catch (err) {
    throw new AtomicWriteError(path, 'follow symlink', err);
  }
  const dir = dirname(target);
  // Loaded here: every command that renders would otherwise load Node's crypto at start-up.
  const { randomBytes } = await import('node:crypto');
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // An explicit or inherited mode is applied exactly (chmod); a new file gets 0644 less the umask.
  const exactMode = opts.mode ?? (await existingMode(target));
  let step = 'create temporary file';
  let handle;
  try {
    handle = await open(temp, 'wx', exactMode ?? 0o644);
    if (exactMode !== undefined) await handle.chmod(exactMode);
    step = 'write';
    for await (const chunk of chunks(content)) {
      if (typeof chunk === 'string') await handle.write(chunk);
      else await handle.write(chunk);
    }
    step = 'fsync';
    await handle.sync();
    await handle.close();
    handle = undefined;
    step = 'rename';
    await rename(temp, target);
  } catch (err) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw new AtomicWriteError(path, step, err);
  }
  await syncDirectory(dir);
}

// Linux's own limit on links followed in one path lookup.
const MAX_LINKS = 40;

/**
 * Where a write to `path` lands: the path itself, or the end of its chain of symlinks
 * (which need not exist yet, like the target of a dangling link that `>` would create).
 */
async function followLinks(path: string): Promise<string> {
  let current = path;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let isLink: boolean;
    try {
      isLink = (await lstat(current)).isSymbolicLink();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw err;
    }
    if (!isLink) return current;
    const text = await readlink(current);
    current = isAbsolute(text) ? text : resolve(dirname(current), text);
  }
  throw Object.assign(new Error(`more than ${MAX_LINKS} symlinks in a chain (ELOOP)`), { code: 'ELOOP' });
}

async function* chunks(content: AtomicContent): AsyncIterable<string | Uint8Array> {
  if (typeof content === 'string' || content instanceof Uint8Array) yield content;
  else yield* content;
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

// Best effort: some file systems refuse fsync on a directory; the data is already safe.
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // ignored, see above
  } finally {
    await handle?.close().catch(() => {});
  }
}
