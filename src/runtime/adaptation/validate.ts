// ValidateContainerAdjustment as the Go runtime (v0.10+, adaptation.go) does it: once
// every plugin has answered CreateContainer and the answers merged without conflict,
// each validator plugin (subscribed to VALIDATE_CONTAINER_ADJUSTMENT) is sent the
// container as it was before any plugin touched it, the merged adjustment and updates,
// who owns which field, and every plugin in invocation order. Validators run in
// parallel; one rejection or failure fails the creation.
import type { ErrorKind } from '../../errors/index.js';
import type { nri } from '../../api/index.js';
import type { Owners } from './owners.js';

export function validationRequest(
  pod: nri.IPodSandbox,
  original: nri.IContainer,
  merged: { adjust?: nri.IContainerAdjustment; updates: nri.IContainerUpdate[] },
  owners: Owners,
  plugins: Array<{ base: string; index: string }>,
): nri.IValidateContainerAdjustmentRequest {
  return {
    pod,
    container: original,
    ...(merged.adjust ? { adjust: merged.adjust } : {}),
    update: merged.updates,
    owners: owners.toProto(),
    // Every plugin in the invocation list, subscribed to CreateContainer or not.
    plugins: plugins.map((p) => ({ name: p.base, index: p.index })),
  };
}

/** A validator said no. The message follows the runtime's wording, so logs compare. */
export class ValidationRejectedError extends Error {
  override readonly name = 'ValidationRejectedError';
  readonly kind: ErrorKind = 'refused';
  constructor(
    readonly plugin: string,
    readonly containerId: string,
    readonly reason: string,
  ) {
    super(
      // pkg/api ValidationResult's words exactly; the container is in the event that carries this.
      `validator "${plugin}" rejected container adjustment, reason: ${reason || 'unknown rejection reason'}`,
    );
  }
}

/** A validator could not answer (error status, timeout, closed): the creation fails too. */
export class ValidatorFailedError extends Error {
  override readonly name = 'ValidatorFailedError';
  readonly kind: ErrorKind = 'failed';
  constructor(
    readonly plugin: string,
    readonly containerId: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`validator plugin ${plugin} failed to validate the adjustment of ${containerId}: ${detail}`, options);
  }
}
