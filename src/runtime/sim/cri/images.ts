// The simulated node's images. A scenario's `images:` lists what the node has; without
// one every image is there (a pull succeeds and is remembered for ListImages). A pull of
// an image the list lacks fails as containerd's does when the registry has no such
// reference: NotFound, in its words. Names are normalized as containerd's reference
// parser does (docker.io/library/NAME:latest), and an image's id is a digest of that name.
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

  has(image: string): boolean {
    const name = normalizeImage(image);
    return this.listed ? this.listed.has(name) : true;
  }

  /** The image as ImageStatus and ListImages describe it, or undefined when the node lacks it. */
  status(image: string): cri.IImage | undefined {
    if (!this.has(image)) return undefined;
    return describe(normalizeImage(image));
  }

  list(filter: string | undefined): cri.IImage[] {
    const names = [...(this.listed ?? this.seen)];
    const wanted = filter ? normalizeImage(filter) : undefined;
    return names.filter((n) => wanted === undefined || n === wanted).map(describe);
  }

  /** PullImage: the image's id, or the registry's NotFound. */
  pull(image: string): string {
    const name = normalizeImage(image);
    if (!this.has(image))
      throw new CriStatus(
        GrpcCode.NOT_FOUND,
        `failed to pull and unpack image "${name}": failed to resolve reference "${name}": ${name}: not found`,
      );
    this.seen.add(name);
    return imageId(name);
  }

  /** CreateContainer's image: its id, or NotFound when the node does not have it. */
  use(image: string): string {
    const name = normalizeImage(image);
    if (!this.has(image)) throw new CriStatus(GrpcCode.NOT_FOUND, `failed to resolve image "${name}": not found`);
    this.seen.add(name);
    return imageId(name);
  }
}

function describe(name: string): cri.IImage {
  return { id: imageId(name), repoTags: [name], repoDigests: [], size: 0, spec: { image: name }, pinned: false };
}

function imageId(name: string): string {
  return `sha256:${createHash('sha256').update(name).digest('hex')}`;
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
