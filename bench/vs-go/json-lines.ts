// A child's stdout read as JSON lines, for waiting on the events it prints (refrt).
import type { Readable } from 'node:stream';

export type Line = Record<string, unknown>;

export class JsonLines {
  private partial = '';
  private waiters: Array<{ match: (l: Line) => boolean; resolve: (l: Line) => void }> = [];

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop()!;
      for (const text of lines) this.feed(text);
    });
  }

  /** The next line (printed after this call) that `match` accepts. */
  next(match: (l: Line) => boolean, timeoutMs = 60_000): Promise<Line> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching line within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ match, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  }

  private feed(text: string): void {
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      return;
    }
    const i = this.waiters.findIndex((w) => w.match(line));
    if (i >= 0) this.waiters.splice(i, 1)[0].resolve(line);
  }
}
