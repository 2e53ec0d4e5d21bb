// The data form of a simulator event (sim -o json): the same conventions as logs and
// sync dump, so one reader handles all three: the time as an RFC 3339 UTC string with
// milliseconds, and the NRI messages an event carries in the protobuf JSON mapping
// (enum names, int64 as strings) through the output layer's toPlain.
//
// The simulator's own updates are plain objects, not decoded messages, so toPlain needs
// their message classes, and with them the protobuf bindings: that is why this file is
// not in the views' index (every command would load the bindings at start-up). The
// simulator's command imports it directly (test/layering.test.ts DIRECT_IMPORTS).
import { nri } from '../api/index.js';
import type { SimEvent } from '../runtime/index.js';
import { type RecordView, toPlain } from '../output/index.js';
import { dataTime } from './events.js';
import { formatSimEvent } from './sim-event-line.js';

function simEventData(e: SimEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { ...e, time: dataTime(e.time) };
  if (e.type === 'adjusted') out.adjust = toPlain(e.adjust, nri.ContainerAdjustment);
  if (e.type === 'updated') out.update = toPlain(e.update, nri.ContainerUpdate);
  return out;
}

/** A simulator event in every stream format: a line for people, an object for programs. */
export const simEventView: RecordView<SimEvent> = { text: formatSimEvent, data: simEventData };
