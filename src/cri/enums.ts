// The CRI enums' values, as numbers on the wire (runtime.proto), for code that builds or
// reads messages without loading the bindings.
export const CriPodState = { READY: 0, NOTREADY: 1 } as const;
export const CriContainerState = { CREATED: 0, RUNNING: 1, EXITED: 2, UNKNOWN: 3 } as const;
export const CriMountPropagation = { PRIVATE: 0, HOST_TO_CONTAINER: 1, BIDIRECTIONAL: 2 } as const;
export const CriCgroupDriver = { SYSTEMD: 0, CGROUPFS: 1 } as const;
