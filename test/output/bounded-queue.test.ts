import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { PassThrough } from 'node:stream';
import { BoundedOutputQueue } from '../../src/output/bounded-queue.js';

const here = dirname(fileURLToPath(import.meta.url));
const line = (i: number): string => `event ${String(i).padStart(6, '0')} ${'x'.repeat(200)}\n`;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Waits, letting the event loop run, until cond() holds. A hang would fail by the test timeout. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await sleep(5);
}

describe('BoundedOutputQueue on a pipe nobody reads', () => {
  it('accepts every push at once, drops beyond the bound and counts exactly', async () => {
    // `sleep` never reads its stdin: our end of that pipe fills and stays full.
    const sleeper: ChildProcess = spawn('sleep', ['60'], { stdio: ['pipe', 'ignore', 'ignore'] });
    cleanups.push(() => sleeper.kill());
    const out = sleeper.stdin!;
    out.on('error', () => {}); // EPIPE when we kill it at the end
    const queue = new BoundedOutputQueue<number>(out, { capacity: 100, render: line });

    let timerFired = false;
    const timer = setTimeout(() => {
      timerFired = true;
    }, 1);
    for (let i = 0; i < 10_000; i++) queue.push(i);
    clearTimeout(timer);
    // push() did no I/O: nothing was written during the burst, the writer runs later.
    expect(queue.written).toBe(0);
    expect(queue.pending).toBe(100);
    expect(queue.dropped).toBe(9_900);
    expect(timerFired).toBe(false);

    // Let the writer run until the pipe is full and it waits for 'drain'.
    let i = 10_000;
    await until(() => {
      for (let k = 0; k < 50; k++) queue.push(i++);
      return out.writableNeedDrain && queue.pending === queue.capacity;
    });
    // The event loop is still ours: timers run while the output is stuck.
    await sleep(20);
    for (let k = 0; k < 1_000; k++) expect(queue.push(i++)).toBe(false);

    expect(queue.written).toBeGreaterThan(100); // the pipe took its buffer's worth
    expect(queue.dropped).toBe(queue.pushed - queue.written - queue.pending);
    expect(await queue.flush(50)).toBe(false); // nothing can drain

    // The reader goes away: what was queued can never be written and counts as dropped.
    sleeper.kill();
    await until(() => queue.outputError !== undefined);
    expect(queue.pending).toBe(0);
    expect(queue.dropped).toBe(queue.pushed - queue.written);
    expect(await queue.flush()).toBe(false);
  });

  it('keeps a real process.stdout pipe from stalling its process', async () => {
    // A child writes 100,000 events to its stdout, which we never read; it reports on stderr.
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'stdout-flood.fixture.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    child.stdout.pause();
    let report = '';
    child.stderr.on('data', (d: Buffer) => {
      report += d.toString();
    });
    await until(() => report.includes('\n'));
    const r = JSON.parse(report.split('\n')[0]) as {
      pushed: number;
      written: number;
      dropped: number;
      pending: number;
      ticks: number;
      blocked: boolean;
    };
    expect(r.pushed).toBe(100_000);
    expect(r.blocked).toBe(true);
    expect(r.dropped).toBeGreaterThan(0);
    expect(r.dropped).toBe(r.pushed - r.written - r.pending);
    // its timers kept running while stdout was full
    expect(r.ticks).toBeGreaterThan(0);
  });
});

// util-linux `script` gives the child a real pseudo-terminal and copies it to a pipe we never read.
const hasScript = ['/usr/bin/script', '/bin/script'].some((p) => existsSync(p));

describe.skipIf(!hasScript)(
  `BoundedOutputQueue on a terminal that stopped reading${hasScript ? '' : ' (skipped: needs script(1) from util-linux)'}`,
  () => {
    async function floodStuckTerminal(mode: 'async' | 'sink'): Promise<{
      pid: number;
      isTTY: boolean;
      switched: boolean;
      pushed: number;
      written: number;
      dropped: number;
      pending: number;
    }> {
      const dir = await mkdtemp(join(tmpdir(), 'nrq-tty-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const reportPath = join(dir, 'report.json');
      const command = `'${process.execPath}' --import tsx '${join(here, 'tty-flood.fixture.ts')}' ${mode}`;
      const script = spawn('script', ['-qfec', command, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'ignore'],
        env: { ...process.env, NRICTL_REPORT: reportPath },
        detached: true,
      });
      cleanups.push(() => {
        try {
          process.kill(-script.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      });
      script.stdout.pause(); // nobody reads the terminal: it fills, like a paused one
      // The child finishes its 50,000 pushes and reports while its terminal is still stuck;
      // with blocking terminal writes it would freeze at the first full buffer.
      await until(() => existsSync(reportPath));
      return JSON.parse(await readFile(reportPath, 'utf8'));
    }

    it('keeps the process running once terminal writes are made asynchronous', async () => {
      const r = await floodStuckTerminal('async');
      expect(r.isTTY).toBe(true);
      expect(r.switched).toBe(true);
      expect(r.pushed).toBe(50_000);
      expect(r.dropped).toBeGreaterThan(0);
      expect(r.dropped).toBe(r.pushed - r.written - r.pending);
    });

    it.skipIf(!existsSync('/proc/self/stat'))(
      'lets the process exit through the sink `logs` uses while the terminal is stuck (needs /proc)',
      async () => {
        const r = await floodStuckTerminal('sink');
        expect(r.isTTY).toBe(true);
        expect(r.dropped).toBe(r.pushed - r.written - r.pending);
        // process.exit() returns promptly: the process is gone or a zombie waiting for `script`
        // (which is itself stuck writing to us). A write parked in a thread-pool thread would hold it.
        const exited = (): boolean => {
          try {
            return readFileSync(`/proc/${r.pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
          } catch {
            return true;
          }
        };
        await until(exited);
        expect(exited()).toBe(true);
      },
    );
  },
);

describe('BoundedOutputQueue catching up', () => {
  let server: Server | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the drop count in place once the reader catches up, and everything else in order', async () => {
    dir = await mkdtemp(join(tmpdir(), 'nrq-'));
    const path = join(dir, 's');
    const accepted = new Promise<Socket>((resolve) => {
      server = createServer(resolve);
    });
    server!.listen(path);
    await once(server!, 'listening');
    const client = connect(path);
    cleanups.push(() => client.destroy());
    const reader = await accepted;
    cleanups.push(() => reader.destroy());
    reader.pause(); // a reader that has stopped reading, like a paused terminal

    const queue = new BoundedOutputQueue<number>(client, { capacity: 500, render: line });
    const reported: number[] = [];
    queue.on('dropped', (n: number) => reported.push(n));
    let i = 0;
    await until(() => {
      for (let k = 0; k < 200; k++) queue.push(i++);
      return client.writableNeedDrain && queue.pending === queue.capacity && queue.dropped > 1000;
    });
    const droppedWhileStuck = queue.dropped;

    let received = '';
    reader.on('data', (d: Buffer) => {
      received += d.toString();
    });
    reader.resume();
    await until(() => reported.length > 0);
    // more events after catching up are written normally
    for (let k = 0; k < 10; k++) queue.push(i++);
    const summary = await queue.end();
    expect(summary.complete).toBe(true);
    client.end();
    await once(reader, 'end');

    const lines = received.trimEnd().split('\n');
    const events = lines.filter((l) => l.startsWith('event '));
    const notices = lines.filter((l) => !l.startsWith('event '));
    expect(notices).toEqual([`${droppedWhileStuck} events dropped: output could not keep up`]);
    expect(reported).toEqual([droppedWhileStuck]);
    expect(events.length).toBe(queue.written);
    expect(summary).toMatchObject({ pushed: i, written: events.length, dropped: droppedWhileStuck });
    expect(summary.pushed).toBe(summary.written + summary.dropped);
    // in order, and the last ten pushed after catching up are all there
    const numbers = events.map((l) => Number(l.slice(6, 12)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.slice(-10)).toEqual(Array.from({ length: 10 }, (_, k) => i - 10 + k));
    // the notice sits where the gap is
    const at = lines.indexOf(notices[0]);
    expect(Number(lines[at + 1].slice(6, 12)) - Number(lines[at - 1].slice(6, 12))).toBeGreaterThan(1);
  });

  it('reports drops at the end, and through the event only when the notice is suppressed', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    const queue = new BoundedOutputQueue<number>(out, { capacity: 2, render: line, dropNotice: () => undefined });
    const reported: number[] = [];
    queue.on('dropped', (n: number) => reported.push(n));
    for (let k = 0; k < 5; k++) queue.push(k);
    let text = '';
    out.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const summary = await queue.end();
    expect(summary).toEqual({ pushed: 5, written: 2, dropped: 3, complete: true });
    expect(reported).toEqual([3]);
    expect(text).toBe(line(0) + line(1));
    expect(queue.push(9)).toBe(false); // ended
  });

  it('room() is nothing to wait for while the queue is at most half full, and a wait above that', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const queue = new BoundedOutputQueue<number>(out, { capacity: 10, render: line, batch: 1 });
    expect(queue.room()).toBeUndefined(); // empty: nothing to wait for
    for (let k = 0; k < 10; k++) queue.push(k);
    let roomy = false;
    const waiting = queue.room()!.then(() => (roomy = true));
    await sleep(50);
    // Nobody reads: the PassThrough holds a line or two, the queue stays above half.
    expect(roomy).toBe(false);
    expect(queue.pending).toBeGreaterThan(5);
    let text = '';
    out.on('data', (d: Buffer) => {
      text += d.toString();
    });
    await waiting;
    expect(queue.pending).toBeLessThanOrEqual(5);
    await queue.end();
    expect(text).toBe(Array.from({ length: 10 }, (_, k) => line(k)).join(''));
    expect(queue.dropped).toBe(0);
  });

  it('room() resolves when the output fails, so a waiting source is never stuck', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const queue = new BoundedOutputQueue<number>(out, { capacity: 4, render: line, batch: 1 });
    for (let k = 0; k < 4; k++) queue.push(k);
    const waiting = queue.room();
    expect(waiting).toBeInstanceOf(Promise);
    out.destroy(new Error('EPIPE'));
    await waiting;
    expect(queue.push(5)).toBe(false);
  });

  it('flush resolves once everything queued has been written', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const queue = new BoundedOutputQueue<string>(out, { capacity: 10_000, render: (s) => `${s}\n`, batch: 7 });
    for (let k = 0; k < 1000; k++) queue.push(`n${k}`);
    expect(await queue.flush()).toBe(true);
    expect(text.split('\n')).toHaveLength(1001);
    expect(queue.written).toBe(1000);
  });
});
