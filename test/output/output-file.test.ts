import { describe, expect, it } from 'vitest';
import { OutputFileError, outputFilePath } from '../../src/output/output-file.js';

describe('outputFilePath', () => {
  it('reads - and no flag as stdout, a name as that file', () => {
    expect(outputFilePath(undefined)).toBeUndefined();
    expect(outputFilePath('-')).toBeUndefined();
    expect(outputFilePath('./-')).toBe('./-');
    expect(outputFilePath('state.json')).toBe('state.json');
  });
  it('refuses an empty name, naming the flag and the fix', () => {
    expect(() => outputFilePath('')).toThrow(OutputFileError);
    expect(() => outputFilePath('', '-f')).toThrow('-f is empty: give a file name, or - for stdout');
  });
});
