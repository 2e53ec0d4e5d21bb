// How a new project's plugin reaches a node, the two ways NRI plugins are deployed:
// an external plugin in a container (Containerfile, deploy/daemonset.yaml), or the
// bundle in the runtime's plugin directory (the README's section, readme.ts).
import type { ProjectSpec } from './project-spec.js';

/** The NRI socket the runtimes listen on by default, and the directory a pod mounts to reach it. */
export const NRI_SOCKET = '/var/run/nri/nri.sock';
const NRI_SOCKET_DIR = '/var/run/nri';
/** The oldest Node that runs the bundle (an ES module without extension: module syntax detection). */
export const BUNDLE_NODE = '20.19';

const bundleName = (p: ProjectSpec): string => `${p.index}-${p.name}`;

export function containerfile(p: ProjectSpec): string {
  const b = bundleName(p);
  return `# ${p.name} as an external NRI plugin: node's slim image and the bundle, nothing else.
#   npm run bundle && podman build -t ${p.name}:0.1.0 .     (or docker build)
# deploy/daemonset.yaml runs it on every node.
# node:20-slim is the newest Node 20 (${BUNDLE_NODE} or newer runs the bundle as it is).
FROM docker.io/library/node:20-slim
COPY build/${b} /usr/local/bin/${b}
# Started by no runtime, an external plugin takes its name and index from its file name
# (${b}) and dials the socket it is given.
ENTRYPOINT ["/usr/local/bin/${b}", "--socket", "${NRI_SOCKET}"]
`;
}

/** The build context is the bundle alone, not node_modules. */
export function containerignore(): string {
  return '*\n!build/\n';
}

export function daemonsetYaml(p: ProjectSpec): string {
  return `# ${p.name} on every node, as an external NRI plugin: each pod dials its node's
# runtime on ${NRI_SOCKET}, as the NRI sample plugins' manifests do (a hostPath of the
# socket's directory). The runtime must allow external plugins (containerd's
# disable_connections = false, the default; CRI-O's enable_nri).
#
# Why root: the NRI socket is root-owned, mode 0600, in a 0700 directory, and a plugin
# must be able to write to it. Root here has no capabilities (the plugin adjusts
# containers through the runtime, which needs none), cannot gain privileges, cannot
# write its own file system, and sees exactly one host directory: ${NRI_SOCKET_DIR},
# read-write because connecting to a socket is a write.
#
#   npm run bundle && podman build -t ${p.name}:0.1.0 .
#   (push the image where the nodes pull from, and set image: below to it)
#   kubectl apply -f deploy/daemonset.yaml
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: nri-plugin-${p.name}
  namespace: kube-system
  labels:
    app.kubernetes.io/name: nri-plugin-${p.name}
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: nri-plugin-${p.name}
  updateStrategy:
    type: RollingUpdate
  template:
    metadata:
      labels:
        app.kubernetes.io/name: nri-plugin-${p.name}
    spec:
      # Every node, whatever its taints: a plugin that adjusts containers must see all of them.
      tolerations:
        - operator: Exists
      priorityClassName: system-node-critical
      automountServiceAccountToken: false
      enableServiceLinks: false
      hostNetwork: false
      hostPID: false
      hostIPC: false
      terminationGracePeriodSeconds: 5
      securityContext:
        runAsUser: 0
        runAsGroup: 0
        runAsNonRoot: false
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: plugin
          image: ${p.name}:0.1.0
          imagePullPolicy: IfNotPresent
          resources:
            requests:
              cpu: 10m
              memory: 32Mi
            limits:
              cpu: 500m
              memory: 128Mi
          securityContext:
            privileged: false
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            runAsUser: 0
            runAsNonRoot: false
            capabilities:
              drop: ["ALL"]
          volumeMounts:
            - name: nri-socket-dir
              mountPath: ${NRI_SOCKET_DIR}
      volumes:
        - name: nri-socket-dir
          hostPath:
            path: ${NRI_SOCKET_DIR}
            type: Directory
`;
}
