// Refuses containers that would run without a memory limit, whoever was to set one:
// called by runtimes with NRI v0.10 or newer after every plugin has adjusted the
// container, with the container as created and the merged adjustment.
import { Stub, PluginError, getOptionalInt64, socketPathFromArgs, type nri } from 'nrictl/plugin';

function validateContainerAdjustment(req: nri.IValidateContainerAdjustmentRequest) {
  const adjusted = getOptionalInt64(req.adjust?.linux?.resources?.memory?.limit);
  const requested = getOptionalInt64(req.container?.linux?.resources?.memory?.limit);
  const limit = adjusted ?? requested;
  if (limit === undefined || limit <= 0) {
    return {
      reject: true,
      reason: `container ${req.pod?.namespace}/${req.pod?.name}/${req.container?.name} has no memory limit; set resources.limits.memory`,
    };
  }
}

const stub = new Stub(
  { validateContainerAdjustment, onClose: (err) => process.exit(err ? 1 : 0) },
  { socketPath: socketPathFromArgs() },
);
try {
  await stub.start();
} catch (err) {
  console.error(err instanceof PluginError ? err.message : err);
  process.exit(1);
}
