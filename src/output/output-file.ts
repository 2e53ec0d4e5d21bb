import type { ErrorKind } from '../errors/index.js';
/** An --output-file value that names no file: the command refuses it before connecting. */
export class OutputFileError extends Error {
  readonly kind: ErrorKind = 'usage';
  readonly flag: string;
  constructor(flag: string, message: string) {
    super(message);
    this.name = 'OutputFileError';
    this.flag = flag;
  }
}

/**
 * Where `--output-file VALUE` sends the output: undefined for stdout (no flag, or `-`,
 * as curl -o - and tar -f - read it), else the file's path. An empty value is a
 * mistake (an unset shell variable, as in `-f "$OUT"`), not a request for stdout.
 */
export function outputFilePath(value: string | undefined, flag = '--output-file'): string | undefined {
  if (value === undefined || value === '-') return undefined;
  if (value === '') throw new OutputFileError(flag, `${flag} is empty: give a file name, or - for stdout`);
  return value;
}
