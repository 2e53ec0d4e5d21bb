// What the kubelet puts in its CRI requests that conformance puts in too, so that a runtime
// treats the test pods and containers as it treats a kubelet's. Read from the kubelet's
// kuberuntime (pkg/kubelet/kuberuntime: kuberuntime_container.go generateContainerConfig,
// labels.go newPodLabels / newContainerLabels, kuberuntime_sandbox.go) and held against what critest and crictl send (cri-tools
// pkg/framework/util.go, cmd/crictl/container.go: both fill user_specified_image).
import type { cri } from '../cri/index.js';

/** The kubelet's labels (pkg/kubelet/types/labels.go). */
const KUBELET_POD_NAME = 'io.kubernetes.pod.name';
const KUBELET_POD_NAMESPACE = 'io.kubernetes.pod.namespace';
const KUBELET_POD_UID = 'io.kubernetes.pod.uid';
const KUBELET_CONTAINER_NAME = 'io.kubernetes.container.name';

/** A pod's labels: the pod's own, then its name, namespace and uid. */
export function kubeletPodLabels(meta: cri.IPodSandboxMetadata): Record<string, string> {
  return {
    [KUBELET_POD_NAME]: meta.name ?? '',
    [KUBELET_POD_NAMESPACE]: meta.namespace ?? '',
    [KUBELET_POD_UID]: meta.uid ?? '',
  };
}

/** A container's labels: its pod's name, namespace and uid, and its own name. */
export function kubeletContainerLabels(pod: cri.IPodSandboxMetadata, name: string): Record<string, string> {
  return { ...kubeletPodLabels(pod), [KUBELET_CONTAINER_NAME]: name };
}

/**
 * The image as the kubelet gives it to CreateContainer: the id ImageStatus (or PullImage)
 * answered, and the image as the pod spec wrote it in user_specified_image, which a CRI-O
 * that verifies signatures requires (server/container_create*.go: "user specified image
 * not specified, cannot verify image signature"). Without an id, the image as written.
 */
export function kubeletImageSpec(image: string, id: string | undefined): cri.IImageSpec {
  return { image: id || image, userSpecifiedImage: image };
}
