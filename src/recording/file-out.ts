// Where a recording's bytes go: a temporary file beside the target, created 0600 (it may
// hold what a node's containers run with), gzip-compressed when the target's name ends in
// .gz, and put in place only once it is whole: a crash leaves no half file under the
// target's name, and an existing file is never replaced without `force`.
import { close, constants, createWriteStream, fchmod, fsync, open, write, writev, type WriteStream } from 'node:fs';
import { access, link, lstat, rename, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { constants as zlibConstants, createGzip, type Gzip } from 'node:zlib';
import { RecordingError } from './errors.js';

export const RECORDING_MODE = 0o600;

export class RecordingFile {
  /** Where the bytes are written: the gzip stream or the file itself. */
  readonly out: Writable;
  private failure: Error | undefined;

  private constructor(
    readonly target: string,
    readonly temp: string,
    /** A plain descriptor: a FileHandle's sync() never settles once a write stream used it (Node 20). */
    private readonly fd: number,
    private readonly file: WriteStream,
    /** Settles once the destroyed stream has no write in flight on `fd`. */
    private readonly streamIdle: Promise<void>,
    private readonly gzip: Gzip | undefined,
    private readonly force: boolean,
  ) {
    this.out = gzip ?? file;
    const failed = (err: Error): void => void (this.failure ??= err);
    // A file that fails ends the gzip stream too, so that nothing waits for it to drain.
    file.on('error', (err) => {
      failed(err);
      gzip?.destroy();
    });
    gzip?.on('error', failed);
  }

  /**
   * Checks the target (its directory must exist; the file must not, unless `force`) and
   * opens the temporary file. Throws a RecordingError before anything else happened.
   */
  static async create(path: string, force: boolean): Promise<RecordingFile> {
    const target = resolve(path);
    const dir = dirname(target);
    try {
      await access(dir, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new RecordingError(
        code === 'ENOENT'
          ? `${path}: the directory ${dir} does not exist`
          : `${path}: cannot write in ${dir} (${code ?? (err as Error).message})`,
        code === 'ENOENT' ? 'not-found' : 'usage',
        'record',
      );
    }
    if (!force && (await exists(target)))
      throw new RecordingError(`${path} exists: give another name, or --force to replace it`, 'conflict', 'record');
    const { randomBytes } = await import('node:crypto');
    const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    let fd: number;
    try {
      fd = await promisify(open)(temp, 'wx', RECORDING_MODE);
      // The umask may have taken bits away; never more than 0600 either way.
      await promisify(fchmod)(fd, RECORDING_MODE);
    } catch (err) {
      throw new RecordingError(
        `${path}: cannot create a file in ${dir} (${(err as Error).message})`,
        'usage',
        'record',
      );
    }
    // The stream writes but never closes the descriptor: autoClose false does not stop
    // destroy() from closing it, and a close after ours would close whatever file took the
    // number meanwhile. Its close is only the sign that no write of it is in flight.
    let idle!: () => void;
    const streamIdle = new Promise<void>((resolve) => (idle = resolve));
    const letGo = (_fd: number, done: (err: null) => void): void => {
      idle();
      done(null);
    };
    const file = createWriteStream('', {
      fd,
      autoClose: false,
      emitClose: false,
      fs: { write, writev, close: letGo },
    });
    // The fastest level: the writer shares the thread that answers the runtime.
    const gzip = target.endsWith('.gz') ? createGzip({ level: zlibConstants.Z_BEST_SPEED }) : undefined;
    if (gzip) gzip.pipe(file);
    return new RecordingFile(target, temp, fd, file, streamIdle, gzip, force);
  }

  /** The first write error, if any: the recording cannot be finished. */
  get error(): Error | undefined {
    return this.failure;
  }

  /**
   * Ends the stream, syncs the file to disk and puts it in place (a hard link, which
   * fails rather than replace a file that appeared meanwhile; a rename with `force`).
   */
  async finish(): Promise<void> {
    await new Promise<void>((done) => {
      if (this.failure) return done();
      this.file.once('finish', done);
      this.file.once('error', () => done());
      this.out.end();
    });
    if (this.failure) throw this.failure;
    await promisify(fsync)(this.fd);
    await this.closeFd();
    if (this.force) await rename(this.temp, this.target);
    else {
      try {
        await link(this.temp, this.target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
          this.kept = true;
          throw new RecordingError(
            `${this.target} appeared while recording: the recording is kept as ${this.temp}`,
            'conflict',
            'record',
          );
        }
        // A file system without hard links: nothing appeared at the check above, so rename.
        if (await exists(this.target)) throw err;
        await rename(this.temp, this.target);
        return;
      }
      await unlink(this.temp);
    }
  }

  /**
   * Removes the temporary file: nothing is left behind (a registration that failed, a
   * write error). Not a whole recording that finish() said it keeps.
   */
  async discard(): Promise<void> {
    this.gzip?.destroy();
    this.file.destroy();
    await this.streamIdle;
    await this.closeFd();
    if (!this.kept) await unlink(this.temp).catch(() => {});
  }

  private closed = false;
  /** Whole, but a file appeared at the target: it stays at `temp`, as the error says. */
  private kept = false;

  private async closeFd(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await promisify(close)(this.fd).catch(() => {});
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
