// The pause (sandbox) image each runtime's configuration names, when it names one:
// containerd 1.7's [plugins."io.containerd.grpc.v1.cri"] sandbox_image, containerd 2.x's
// [plugins."io.containerd.cri.v1.images".pinned_images] sandbox, CRI-O's [crio.image]
// pause_image, iSulad's "pod-sandbox-image". `nrictl conformance` runs its test
// containers from it, so that nothing is pulled.
import { isTable } from './schema.js';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function containerdPauseImage(doc: Record<string, unknown>): { pauseImage?: string } {
  const plugins = isTable(doc.plugins) ? doc.plugins : {};
  const images = plugins['io.containerd.cri.v1.images'];
  const pinned = isTable(images) && isTable(images.pinned_images) ? text(images.pinned_images.sandbox) : undefined;
  const cri = plugins['io.containerd.grpc.v1.cri'];
  const image = pinned ?? (isTable(cri) ? text(cri.sandbox_image) : undefined);
  return image ? { pauseImage: image } : {};
}

/** CRI-O's pause_image in one file, if it sets it (a later drop-in wins). */
export function crioPauseImage(doc: Record<string, unknown>): string | undefined {
  const crio = isTable(doc.crio) ? doc.crio : {};
  return isTable(crio.image) ? text(crio.image.pause_image) : undefined;
}

export function isuladPauseImage(cfg: Record<string, unknown>): { pauseImage?: string } {
  const image = text(cfg['pod-sandbox-image']);
  return image ? { pauseImage: image } : {};
}
