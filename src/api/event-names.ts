// NRI's events by name, in the order of the Event enum (api.proto): a number from the wire
// and a name from JSON find each other here without loading the generated protobuf module,
// which light code (the views, the conformance checks' data) must not pay for.
export const EVENT_NAMES_BY_NUMBER = [
  'Unknown',
  'RunPodSandbox',
  'StopPodSandbox',
  'RemovePodSandbox',
  'CreateContainer',
  'PostCreateContainer',
  'StartContainer',
  'PostStartContainer',
  'UpdateContainer',
  'PostUpdateContainer',
  'StopContainer',
  'RemoveContainer',
  'UpdatePodSandbox',
  'PostUpdatePodSandbox',
  'ValidateContainerAdjustment',
] as const;

export type EventName = (typeof EVENT_NAMES_BY_NUMBER)[number];
