// How a step words what the runtime answered, in one line, and whether a failed call was
// an answer at all.
import { CriError } from '../../cri/index.js';
import { excerpt } from '../../units/index.js';
import { CheckError } from '../errors.js';

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

/**
 * A call that had to fail did: returns when the runtime answered with an error status (its
 * refusal). A call that got no answer (its deadline passed, the runtime went away) is no
 * refusal: the check cannot be judged, and ends as an error rather than a pass.
 */
export function refusal(err: unknown, what: string): void {
  if (!(err instanceof CriError)) throw err;
  if (err.code === 'not-found' || err.code === 'unimplemented' || err.code === 'refused') return;
  throw new CheckError(`${what} got no answer to judge: ${excerpt(err.message, 160)}`);
}
