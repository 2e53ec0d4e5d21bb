// containerd/nri pkg/api timeouts.go: what a runtime gives a plugin unless configured
// otherwise, to register after it connected (or was launched) and to answer each request.
export const DEFAULT_REGISTRATION_TIMEOUT_MS = 5000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;
