// Which plugin set which field of which container during one request: the runtime's
// conflict detector. Semantics of the Go runtime (pkg/api owners): a field belongs to
// the first plugin that sets it; a second plugin setting it is a conflict; a plugin
// that removes an entry leaves a removal mark, after which only that same plugin may
// set the entry again.
import { nri } from '../../api/index.js';
import { ConflictError } from './errors.js';

const REMOVED = '-';

interface ContainerOwners {
  simple: Map<nri.Field, string>;
  compound: Map<nri.Field, Map<string, string>>;
}

function fieldName(field: nri.Field): string {
  return nri.Field[field] ?? `Field(${field})`;
}

export class Owners {
  private readonly byContainer = new Map<string, ContainerOwners>();

  private of(id: string): ContainerOwners {
    let o = this.byContainer.get(id);
    if (!o) {
      o = { simple: new Map(), compound: new Map() };
      this.byContainer.set(id, o);
    }
    return o;
  }

  private check(
    id: string,
    field: nri.Field,
    key: string | undefined,
    owner: string | undefined,
    plugin: string,
  ): void {
    if (owner === undefined) return;
    let other = owner;
    if (owner.startsWith(REMOVED)) {
      const remover = owner.slice(1);
      if (remover === plugin) return;
      other = remover;
    }
    throw new ConflictError(fieldName(field), key, [other, plugin], id);
  }

  claim(id: string, field: nri.Field, plugin: string): void {
    const o = this.of(id);
    this.check(id, field, undefined, o.simple.get(field), plugin);
    o.simple.set(field, plugin);
  }

  claimEntry(id: string, field: nri.Field, key: string, plugin: string): void {
    const o = this.of(id);
    let m = o.compound.get(field);
    if (!m) {
      m = new Map();
      o.compound.set(field, m);
    }
    this.check(id, field, key, m.get(key), plugin);
    m.set(key, plugin);
  }

  clear(id: string, field: nri.Field, plugin: string): void {
    this.of(id).simple.set(field, REMOVED + plugin);
  }

  clearEntry(id: string, field: nri.Field, key: string, plugin: string): void {
    const o = this.of(id);
    let m = o.compound.get(field);
    if (!m) {
      m = new Map();
      o.compound.set(field, m);
    }
    m.set(key, REMOVED + plugin);
  }

  /** OCI hooks only accumulate: every plugin adding hooks is recorded, none conflicts. */
  claimHooks(id: string, plugin: string): void {
    const o = this.of(id);
    const current = o.simple.get(nri.Field.OciHooks);
    o.simple.set(nri.Field.OciHooks, current ? `${current},${plugin}` : plugin);
  }

  owner(id: string, field: nri.Field, key?: string): string | undefined {
    const o = this.byContainer.get(id);
    if (!o) return undefined;
    return key === undefined ? o.simple.get(field) : o.compound.get(field)?.get(key);
  }

  /** The wire form sent to validator plugins (ValidateContainerAdjustmentRequest.owners). */
  toProto(): nri.IOwningPlugins {
    const owners: Record<string, nri.IFieldOwners> = {};
    for (const [id, o] of this.byContainer) {
      const simple: Record<number, string> = {};
      for (const [f, p] of o.simple) simple[f] = p;
      const compound: Record<number, nri.ICompoundFieldOwners> = {};
      for (const [f, m] of o.compound) compound[f] = { owners: Object.fromEntries(m) };
      owners[id] = { simple, compound };
    }
    return { owners };
  }
}
