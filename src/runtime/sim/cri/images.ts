// The simulated node's images. A scenario's `images:` lists what the node has; without
// one every image is there (a pull succeeds and is remembered for ListImages). A pull of
// an image the list lacks fails as containerd's does when the registry has no such
// reference: NotFound, in its words. Names are normalized as containerd's reference
// parser does (docker.io/library/NAME:latest), and an image's id is a digest of that name.
// An image is found by its name or by its id (the kubelet creates containers from the id
// ImageStatus gave it), and has a size: the kubelet's CRI client (k8s.io/cri-client
// remote_image.go imageStatusV1) refuses an ImageStatus whose image has no id or size 0.
import { createHash } from 'node:crypto';
import { CriStatus, GrpcCode, type cri } from '../../../cri/index.js';

export class ImageStore {
  /** The node's images by normalized name; undefined: every image is there. */
  private readonly listed: Set<string> | undefined;
  /** Images pulled or used, shown by ListImages when nothing is listed. */
  private readonly seen = new Set<string>();

  constructor(images: readonly string[] | undefined) {
    this.listed = images ? new Set(images.map(normalizeImage)) : undefined;
  }

  /**
   * The image's normalized name, or undefined when the node lacks it. An id names the
   * image of that id; an id of no image known by name is there only when every image is.
   */
  resolve(image: string): string | undefined {
    const name = normalizeImage(image);
    if (isId(name)) {
      for (const known of [...(this.listed ?? []), ...this.seen]) if (imageId(known) === name) return known;
      return this.listed ? undefined : name;
    }
    return this.listed && !this.listed.has(name) ? undefined : name;
  }

  /** The image as ImageStatus and ListImages describe it, or undefined when the node lacks it. */
  status(image: string): cri.IImage | undefined {
    const name = this.resolve(image);
    return name === undefined ? undefined : describe(name);
  }

  list(filter: string | undefined): cri.IImage[] {
    const names = [...(this.listed ?? this.seen)];
    const wanted = filter ? this.resolve(filter) : undefined;
    if (filter && wanted === undefined) return [];
    return names.filter((n) => wanted === undefined || n === wanted).map(describe);
  }

  /** PullImage: the image's id, or the registry's NotFound. */
  pull(image: string): string {
    const name = this.resolve(image);
    if (name === undefined) {
      const asked = normalizeImage(image);
      throw new CriStatus(
        GrpcCode.NOT_FOUND,
        `failed to pull and unpack image "${asked}": failed to resolve reference "${asked}": ${asked}: not found`,
      );
    }
    this.seen.add(name);
    return imageId(name);
  }

  /** CreateContainer's image: its name (as ContainerStatus shows it) and id, or NotFound when the node does not have it. */
  use(image: string): { name: string; id: string } {
    const name = this.resolve(image);
    if (name === undefined)
      throw new CriStatus(GrpcCode.NOT_FOUND, `failed to resolve image "${normalizeImage(image)}": not found`);
    this.seen.add(name);
    return { name, id: imageId(name) };
  }
}

/** Of an image known only by its id, as containerd: no tags, the id as its spec. */
function describe(name: string): cri.IImage {
  return {
    id: imageId(name),
    repoTags: isId(name) ? [] : [name],
    repoDigests: [],
    size: imageSize(name),
    spec: { image: name },
    pinned: false,
  };
}

const isId = (name: string): boolean => /^sha256:[0-9a-f]{64}$/.test(name);

export function imageId(name: string): string {
  return isId(name) ? name : `sha256:${createHash('sha256').update(name).digest('hex')}`;
}

/**
 * A size that stays the same for the same image: the scenario gives none, and 0 is what
 * the kubelet's client refuses. Between 1 and 8 MiB, as small images (pause, busybox) are.
 */
function imageSize(name: string): number {
  const digest = createHash('sha256').update(`size:${name}`).digest();
  return 1_048_576 + (digest.readUInt32BE(0) % (7 * 1_048_576));
}

/** "busybox" -> "docker.io/library/busybox:latest"; a digest or tag is kept. */
function normalizeImage(ref: string): string {
  if (ref.startsWith('sha256:')) return ref;
  let name = ref;
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  if (slash < 0) name = `docker.io/library/${name}`;
  else if (!first.includes('.') && !first.includes(':') && first !== 'localhost') name = `docker.io/${name}`;
  const last = name.slice(name.lastIndexOf('/') + 1);
  if (!last.includes(':') && !last.includes('@')) name = `${name}:latest`;
  return name;
}
