// plugin bundle's -o, which named the file to write before -o meant the output format in
// every command. For one release a value that names no format is still the file, with
// one line of warning; --out is its name now.
import { Flags } from '@oclif/core';
import chalk from 'chalk';
import type { OutputFormat } from '../output/index.js';
import { usageError } from './errors.js';

/** An -o that named the output file: the file. */
export interface LegacyOutputFile {
  file: string;
}

/**
 * -o: one of `formats` (table, the default, first), as everywhere; any other value is the
 * old -o FILE, with a warning that `fileFlag` takes it now. `text` is a file here too: it
 * never was a format of this command.
 */
export const outputOrLegacyFileFlag = (formats: readonly OutputFormat[], fileFlag: string) =>
  Flags.custom<string | LegacyOutputFile>({
    char: 'o',
    description: `Output format: ${formats.join(', ')}.`,
    helpValue: formats.join('|'),
    default: formats[0],
    parse: async (input: string): Promise<string | LegacyOutputFile> => {
      if ((formats as readonly string[]).includes(input)) return input;
      process.stderr.write(
        `${chalk.yellow('Warning:')} -o FILE is deprecated: use ${fileFlag} ${input} (-o is the output format now: ${formats.join(', ')})\n`,
      );
      return { file: input };
    },
  })();

/** The file to write: `fileFlag`'s value, or the old -o FILE; one of them, once. */
export function fileOf(
  fileFlag: string,
  value: string | undefined,
  output: string | LegacyOutputFile | undefined,
  example: string,
): string {
  const legacy = typeof output === 'object' ? output.file : undefined;
  if (value !== undefined && legacy !== undefined)
    throw usageError(`give the file once, with ${fileFlag} (not also -o ${legacy})`);
  const file = value ?? legacy;
  if (file === undefined)
    throw usageError(`${fileFlag} is required: the file to write, such as ${fileFlag} ${example}`);
  return file;
}
