// The data form of a simulator event (sim -o json): the same conventions as logs and
// sync dump, so one reader handles all three: the time as an RFC 3339 UTC string with
// milliseconds, and the NRI messages an event carries in the protobuf JSON mapping
// (enum names, int64 as strings) through render's toPlain.
import { nri } from '../api/index.js';
import { toPlain } from '../render/index.js';
import type { SimEvent } from './events.js';

export function simEventData(e: SimEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { ...e, time: new Date(e.time).toISOString() };
  if (e.type === 'adjusted') out.adjust = toPlain(e.adjust, nri.ContainerAdjustment);
  if (e.type === 'updated') out.update = toPlain(e.update, nri.ContainerUpdate);
  return out;
}
