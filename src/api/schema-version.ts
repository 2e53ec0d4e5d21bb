// The NRI release whose api.proto our nri.proto matches (see its header). The plugin SDK
// sends it when it registers (RegisterPluginRequest.NRI_version, src/plugin), and
// `nrictl version` shows it. This file imports nothing, so that light code (the version
// command) may load it without the protobuf bindings.

/** The NRI release whose wire schema nrictl and its plugin SDK speak. */
export const NRI_SCHEMA_VERSION = 'v0.12.0';
