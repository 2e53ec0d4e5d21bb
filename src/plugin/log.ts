// A plugin's log, written where an operator will look. A runtime that starts a plugin
// from its plugin directory owns its stdout and stderr and, containerd for one
// (containerd issue 11875), throws them away. So a plugin the runtime started, without
// a terminal, logs to the systemd journal when there is one, else to a file under
// /var/log/nri; everything else (an external plugin, a terminal, stderr already
// connected to the journal) logs to stderr as before.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { format } from 'node:util';
import {
  DEFAULT_JOURNAL_SOCKET,
  DEFAULT_PLUGIN_LOG_DIR,
  JOURNAL_SOCKET_ENV,
  LOG_FILE_MAX_BYTES,
  PLUGIN_LOG_DIR_ENV,
  PLUGIN_LOG_ENV,
} from '../api/index.js';
import { PLUGIN_SOCKET_ENV } from './connect.js';
import { pluginIdentity } from './identity.js';

/** What may wait for a slow journal; past it lines are dropped and counted. */
const JOURNAL_BACKLOG_MAX_BYTES = 1 << 20;

export type LogDestination =
  | { kind: 'stderr'; why: string }
  | { kind: 'journal'; socket: string; identifier: string }
  | { kind: 'file'; file: string };

export interface PluginLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Where the lines go now (it can change once: to stderr when the file or journal fails). */
  readonly destination: LogDestination;
}

export interface PluginLogOptions {
  /** The plugin's name ("annotate"): the file's name. Default: as the stub finds it (NRI_PLUGIN_NAME, the file name). */
  name?: string;
  /** "10-annotate": the journal's SYSLOG_IDENTIFIER. Default: index-name as the stub finds them. */
  identifier?: string;
  env?: NodeJS.ProcessEnv;
  /** Default: whether fd 2 is a terminal. */
  stderrIsTTY?: boolean;
  maxFileBytes?: number;
  /** Where stderr lines go; default fd 2. */
  writeStderr?: (text: string) => void;
}

type Level = 'info' | 'warn' | 'error';
/** syslog priorities, as the journal reads them from a "<N>" prefix. */
const PRIORITY: Record<Level, number> = { info: 6, warn: 4, error: 3 };

/** Where a plugin started now would log, by the rules at the top of this file. */
export function chooseLogDestination(opts: PluginLogOptions = {}): LogDestination {
  const env = opts.env ?? process.env;
  const { name, identifier } = names(opts);
  const file = path.join(env[PLUGIN_LOG_DIR_ENV] || DEFAULT_PLUGIN_LOG_DIR, `${name}.log`);
  const socket = env[JOURNAL_SOCKET_ENV] || DEFAULT_JOURNAL_SOCKET;
  const forced = env[PLUGIN_LOG_ENV];
  if (forced === 'stderr') return { kind: 'stderr', why: `${PLUGIN_LOG_ENV}=stderr` };
  if (forced === 'file') return { kind: 'file', file };
  if (forced === 'journal') return isSocket(socket) ? { kind: 'journal', socket, identifier } : { kind: 'file', file };
  if (env[PLUGIN_SOCKET_ENV] === undefined) return { kind: 'stderr', why: 'not started by a runtime' };
  if (opts.stderrIsTTY ?? process.stderr.isTTY) return { kind: 'stderr', why: 'a terminal' };
  if (stderrIsJournal(env)) return { kind: 'stderr', why: 'stderr is connected to the journal' };
  if (isSocket(socket)) return { kind: 'journal', socket, identifier };
  return { kind: 'file', file };
}

/** The log where chooseLogDestination says; its file or socket is opened at the first line. */
export function openPluginLog(opts: PluginLogOptions = {}): PluginLog {
  return new Log(chooseLogDestination(opts), opts);
}

let shared: PluginLog | undefined;
let consoleRouted = false;

/**
 * For a plugin the runtime started (connected over the fd it passed): when its log does
 * not go to stderr, console.log/info/debug/warn/error go to the log too, so that a
 * plugin written with console.error logs where an operator looks. Once per process.
 */
export function routeConsoleToLog(): void {
  if (consoleRouted || chooseLogDestination().kind === 'stderr') return;
  consoleRouted = true;
  const to =
    (level: 'info' | 'warn' | 'error') =>
    (...args: unknown[]) =>
      log[level](format(...args));
  console.log = console.info = console.debug = to('info');
  console.warn = to('warn');
  console.error = to('error');
}

/**
 * The plugin's log, opened on first use: `log.info('...')`, `log.warn`, `log.error`.
 * One line per call; a message's own newlines are kept.
 */
export const log: PluginLog = {
  info: (message) => (shared ??= openPluginLog()).info(message),
  warn: (message) => (shared ??= openPluginLog()).warn(message),
  error: (message) => (shared ??= openPluginLog()).error(message),
  get destination() {
    return (shared ??= openPluginLog()).destination;
  },
};

class Log implements PluginLog {
  #dest: LogDestination;
  readonly #opts: PluginLogOptions;
  readonly #stderr: (text: string) => void;
  #file: { fd: number; size: number; max: number } | undefined;
  #journal: net.Socket | undefined;
  #dropped = 0;
  #opened = false;

  constructor(dest: LogDestination, opts: PluginLogOptions) {
    this.#opts = opts;
    this.#stderr = opts.writeStderr ?? ((text) => process.stderr.write(text));
    this.#dest = dest;
  }

  get destination(): LogDestination {
    return this.#dest;
  }

  info(message: string): void {
    this.#write('info', message);
  }

  warn(message: string): void {
    this.#write('warn', message);
  }

  error(message: string): void {
    this.#write('error', message);
  }

  #write(level: Level, message: string): void {
    // Opened at the first line: a plugin that logs nothing leaves no file behind.
    if (!this.#opened) {
      this.#opened = true;
      if (this.#dest.kind === 'file') this.#openFile(this.#dest.file);
      else if (this.#dest.kind === 'journal') this.#openJournal(this.#dest.socket, this.#dest.identifier);
    }
    if (this.#file) return this.#writeFile(level, message);
    if (this.#journal) return this.#writeJournal(level, message);
    this.#stderr(`${message}\n`);
  }

  #openFile(file: string): void {
    const dir = path.dirname(file);
    try {
      if (!fs.existsSync(dir)) {
        fs.mkdirSync(dir, { recursive: true, mode: 0o750 });
        fs.chmodSync(dir, 0o750); // whatever the umask took away or left
      }
      const created = !fs.existsSync(file);
      const fd = fs.openSync(file, 'a', 0o640);
      if (created) fs.fchmodSync(fd, 0o640);
      this.#file = { fd, size: fs.fstatSync(fd).size, max: this.#opts.maxFileBytes ?? LOG_FILE_MAX_BYTES };
    } catch (err) {
      this.#toStderr(`cannot write ${file} (${(err as Error).message})`);
    }
  }

  #writeFile(level: Level, message: string): void {
    const f = this.#file!;
    const line = Buffer.from(`${new Date().toISOString()} ${level.toUpperCase()} ${message}\n`);
    try {
      if (f.size > 0 && f.size + line.length > f.max) this.#rotate();
      this.#file!.size += fs.writeSync(this.#file!.fd, line);
    } catch (err) {
      const file = this.#dest.kind === 'file' ? this.#dest.file : 'the log file';
      this.#closeFile();
      this.#toStderr(`cannot write ${file} (${(err as Error).message})`);
      this.#stderr(`${message}\n`);
    }
  }

  /** NAME.log becomes NAME.log.1 and a new NAME.log starts: the log never holds more than two files. */
  #rotate(): void {
    const file = (this.#dest as { file: string }).file;
    this.#closeFile();
    fs.renameSync(file, `${file}.1`);
    const fd = fs.openSync(file, 'a', 0o640);
    fs.fchmodSync(fd, 0o640);
    this.#file = { fd, size: 0, max: this.#opts.maxFileBytes ?? LOG_FILE_MAX_BYTES };
  }

  #closeFile(): void {
    if (this.#file) fs.closeSync(this.#file.fd);
    this.#file = undefined;
  }

  /**
   * The journal's stream protocol (what systemd-cat and sd_journal_stream_fd use): a
   * header naming the identifier and a default priority, with "level prefix" on, then
   * one "<priority>message" line per line. Node has no unix datagram sockets, so the
   * native datagram protocol is out of reach; the stream socket takes the same fields.
   */
  #openJournal(socket: string, identifier: string): void {
    const s = net.createConnection(socket);
    s.unref(); // the log never keeps a plugin alive
    s.on('error', (err) => {
      this.#journal = undefined;
      s.destroy();
      this.#toStderr(`cannot write to the journal at ${socket} (${err.message})`);
    });
    // identifier, unit id, priority, level prefix, forward to syslog, kmsg, console
    s.write(`${identifier}\n\n6\n1\n0\n0\n0\n`);
    this.#journal = s;
  }

  #writeJournal(level: Level, message: string): void {
    const s = this.#journal!;
    if (s.writableLength > JOURNAL_BACKLOG_MAX_BYTES) {
      this.#dropped++;
      return;
    }
    let text = '';
    if (this.#dropped > 0) {
      text = `<${PRIORITY.warn}>${this.#dropped} log lines dropped: the journal did not keep up\n`;
      this.#dropped = 0;
    }
    for (const line of message.split('\n')) text += `<${PRIORITY[level]}>${line}\n`;
    s.write(text);
  }

  /** Says once, on stderr, why the log falls back to it. */
  #toStderr(why: string): void {
    if (this.#dest.kind === 'stderr') return;
    this.#dest = { kind: 'stderr', why };
    this.#stderr(`${names(this.#opts).identifier}: ${why}; logging to stderr\n`);
  }
}

let stubIdentity: { name: string; identifier: string } | undefined;
/** The first Stub made names the shared log, should its options name the plugin otherwise than the environment. */
export function nameSharedLog(name: string, identifier: string): void {
  stubIdentity ??= { name, identifier };
}

function names(opts: PluginLogOptions): { name: string; identifier: string } {
  let found = stubIdentity;
  if (!found) {
    try {
      const id = pluginIdentity({}, opts.env ?? process.env);
      found = { name: id.name, identifier: `${id.index}-${id.name}` };
    } catch {
      // Nothing names the plugin (a stub will refuse to start anyway): a log must still work.
      found = { name: 'nri-plugin', identifier: 'nri-plugin' };
    }
  }
  return { name: opts.name ?? found.name, identifier: opts.identifier ?? found.identifier };
}

function isSocket(p: string): boolean {
  try {
    return fs.statSync(p).isSocket();
  } catch {
    return false;
  }
}

/** systemd's rule: JOURNAL_STREAM holds "device:inode" of the stream, compared with fd 2's. */
function stderrIsJournal(env: NodeJS.ProcessEnv): boolean {
  const stream = env.JOURNAL_STREAM;
  if (!stream) return false;
  try {
    const st = fs.fstatSync(2);
    return stream === `${st.dev}:${st.ino}`;
  } catch {
    return false;
  }
}
