// Runs a command to its end, reading its stdout as it comes: the time of the last byte
// (what a user waiting for the output sees), the exit, and, where GNU time is installed,
// CPU time and peak RSS.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GNU_TIME = '/usr/bin/time';

export interface LastByte {
  lastByteMs: number;
  exitMs: number;
  bytes: number;
  cpuMs?: number;
  peakMb?: number;
}

export function runToLastByte(command: string, args: string[]): Promise<LastByte> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vs-go-lb-'));
  const timeFile = path.join(scratch, 'time.txt');
  const timed = existsSync(GNU_TIME);
  const [cmd, argv] = timed ? [GNU_TIME, ['-o', timeFile, '-f', '%U %S %M', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let last = t0;
    let bytes = 0;
    let stderr = '';
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => {
      bytes += b.length;
      last = performance.now();
    });
    child.stderr.on('data', (b: Buffer) => void (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const exitMs = performance.now() - t0;
      try {
        if (code !== 0)
          return reject(
            new Error(`${command} ${args.join(' ')}: exited ${code ?? signal}: ${stderr.trim().slice(-500)}`),
          );
        const r: LastByte = { lastByteMs: last - t0, exitMs, bytes };
        if (timed) {
          const [user, sys, kb] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
          r.cpuMs = (user + sys) * 1000;
          r.peakMb = kb / 1024;
        }
        resolve(r);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
  });
}
