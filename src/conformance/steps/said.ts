// How a step words what the runtime answered, in one line.
import { CriError } from '../../cri/index.js';
import { excerpt } from '../../units/index.js';

/** "NotFound: an error occurred when try to find sandbox ...": the runtime's status and words, cut to one line. */
export function said(err: unknown): string {
  if (err instanceof CriError && err.goStatus !== undefined) {
    const { grpcMessage } = err.details;
    return excerpt(`${err.goStatus.replace(/^rpc error: code = (\S+) desc = .*/s, '$1')}: ${grpcMessage ?? ''}`, 160);
  }
  return excerpt(err instanceof Error ? err.message : String(err), 160);
}

/** The words of a runtime's answer, for matching a plugin's message in it. */
export function words(err: unknown): string {
  if (err instanceof CriError) return err.details.grpcMessage ?? err.message;
  return err instanceof Error ? err.message : String(err);
}
