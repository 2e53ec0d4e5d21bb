// The Go library's wording: %q quoting and the status text a runtime logs.
import { describe, expect, it } from 'vitest';
import { goErrorText, goQuote, goStatusText } from '../../src/runtime/adaptation/go-text.js';
import { Code, TtrpcError } from '../../src/ttrpc/index.js';

describe("Go's wording", () => {
  it('quotes as strconv.Quote does', () => {
    expect(goQuote('10-a')).toBe('"10-a"');
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('t\tn\n\x01\x7f')).toBe('"t\\tn\\n\\x01\\x7f"');
    expect(goQuote('żółw')).toBe('"żółw"');
  });

  it('prints a status as grpc status errors do, with Code(n) for unknown codes', () => {
    expect(goStatusText(new TtrpcError(Code.Unknown, 'boom'))).toBe('rpc error: code = Unknown desc = boom');
    expect(goStatusText(new TtrpcError(Code.InvalidArgument, ''))).toBe('rpc error: code = InvalidArgument desc = ');
    expect(goStatusText(new TtrpcError(42 as Code, 'x'))).toBe('rpc error: code = Code(42) desc = x');
  });

  it('finds the status under wrapping errors, else keeps the message', () => {
    const wrapped = new Error('outer', { cause: new TtrpcError(Code.NotFound, 'gone') });
    expect(goErrorText(wrapped)).toBe('rpc error: code = NotFound desc = gone');
    expect(goErrorText(new Error('plain'))).toBe('plain');
  });
});
