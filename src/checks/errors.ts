import type { ErrorKind } from '../errors/index.js';
import { statSync } from 'node:fs';
import { deniedToUs } from './permissions.js';

/**
 * A path a check was asked to look at cannot be looked at: it does not exist, is not
 * the kind of thing expected, or cannot be read. Commands turn this into a usage error;
 * doctor may turn it into a finding.
 */
export class CheckPathError extends Error {
  get kind(): ErrorKind {
    return this.reason === 'missing' ? 'not-found' : 'usage';
  }
  readonly path: string;
  readonly reason: 'missing' | 'unreadable' | 'not-a-directory' | 'not-a-file';
  /** The errno code behind it, when there is one (EACCES, ...). */
  readonly code: string | undefined;
  /** What the path was meant to be ("plugin directory", "runtime config"), named first in the message. */
  readonly role: string | undefined;
  /** The caller's option that gave the path ("root"), when one did: the command line names its flag. */
  readonly option: string | undefined;
  constructor(
    path: string,
    reason: CheckPathError['reason'],
    detail?: string,
    options?: { cause?: unknown; role?: string | undefined; option?: string | undefined },
  ) {
    const what = {
      missing: 'does not exist',
      unreadable: 'cannot be read',
      'not-a-directory': 'is not a directory',
      'not-a-file': 'is not a regular file',
    }[reason];
    super(`${options?.role ? `${options.role} ` : ''}${path} ${what}${detail ? ` (${detail})` : ''}`, options);
    this.name = 'CheckPathError';
    this.path = path;
    this.reason = reason;
    this.code = (options?.cause as NodeJS.ErrnoException | undefined)?.code;
    this.role = options?.role;
    this.option = options?.option;
  }
}

/**
 * Whether nothing is at `path`. Unlike existsSync, a path we may not look at is not
 * missing: the runtime, as root, may well find it there.
 */
export function isMissing(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

export function pathErrorFrom(path: string, err: unknown, role?: string, option?: string): CheckPathError {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new CheckPathError(path, 'missing', undefined, { cause: err, role, option });
  if (code === 'ENOTDIR') return new CheckPathError(path, 'not-a-directory', undefined, { cause: err, role, option });
  // Root, as which the runtime runs, would get in: say that this run could not look.
  const detail = deniedToUs(code) ? `${code}: run nrictl as root to check it` : (code ?? String(err));
  return new CheckPathError(path, 'unreadable', detail, { cause: err, role, option });
}
