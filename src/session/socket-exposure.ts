// The NRI socket is as powerful as root. Before connecting, say so when someone other
// than its owner could connect to it or replace it. The rule itself lives in
// src/checks (doctor applies the same one); a missing socket is left to the
// connection's own error, and the embedded simulator's socket is never checked.
import { socketExposureFindings } from '../checks/index.js';

/** One line per problem: "PATH: what; fix: how". */
export function socketExposure(socketPath: string): string[] {
  return socketExposureFindings(socketPath).map((f) => `${f.path}: ${f.message}; fix: ${f.fix}`);
}
