import { lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

export type EntryKind = 'file' | 'directory' | 'fifo' | 'socket' | 'char-device' | 'block-device' | 'symlink' | 'other';

/** What one directory entry is, seen both as the entry itself and through a symlink. */
export interface EntryFacts {
  path: string;
  name: string;
  /** The entry itself (lstat): what Go's os.DirEntry.Info() reports. */
  self: Stats;
  isSymlink: boolean;
  /** The link text, for symlinks. */
  linkText?: string;
  /** The resolved target path, for symlinks. */
  linkTarget?: string;
  /** Through links (stat): what exec() and iSulad's stat() see; undefined when the link dangles or loops. */
  target?: Stats;
  /** Why stat through the link failed: ENOENT (dangling), ELOOP (a loop of links), ... */
  targetError?: string;
  /** The kind of the target (or of the entry when it is no link). */
  kind: EntryKind;
}

export function kindOf(st: Stats): EntryKind {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'char-device';
  if (st.isBlockDevice()) return 'block-device';
  if (st.isSymbolicLink()) return 'symlink';
  return 'other';
}

export const KIND_LABEL: Record<EntryKind, string> = {
  file: 'regular file',
  directory: 'directory',
  fifo: 'fifo',
  socket: 'socket',
  'char-device': 'character device',
  'block-device': 'block device',
  symlink: 'symlink',
  other: 'special file',
};

/** Throws only when the entry itself vanished (lstat fails). */
export function probeEntry(path: string): EntryFacts {
  const self = lstatSync(path);
  const facts: EntryFacts = { path, name: basename(path), self, isSymlink: self.isSymbolicLink(), kind: kindOf(self) };
  if (!facts.isSymlink) {
    facts.target = self;
    return facts;
  }
  try {
    facts.linkText = readlinkSync(path);
    facts.linkTarget = resolve(dirname(path), facts.linkText);
  } catch {
    // raced with a removal; treat as dangling below
  }
  try {
    facts.target = statSync(path);
    facts.kind = kindOf(facts.target);
  } catch (err) {
    facts.target = undefined;
    facts.targetError = (err as NodeJS.ErrnoException).code ?? 'EIO';
  }
  return facts;
}

export function modeString(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}
