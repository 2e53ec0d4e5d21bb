// Experiment for `nrictl sync dump` (which today decodes the whole state before it
// answers Synchronize): an SDK plugin that answers Synchronize unread (the SDK's
// synchronizeRaw) and decodes it afterwards, entry by entry, as sync dump could. Run by
// vs-go-sync-dump.bench.ts to show the round trip the runtime would see.
//   node raw-sync.mjs SOCKET        (prints the pods and containers it decoded)
import { decodeSyncEntry, synchronizeEntries } from '../../../dist/src/api/index.js';
import { Stub } from '../../../dist/src/plugin/index.js';

let received;
const got = new Promise((resolve) => (received = resolve));
const stub = new Stub(
  { synchronizeRaw: (payloads) => received(payloads), runPodSandbox: () => {} },
  { name: 'raw-sync', index: '98', socketPath: process.argv[2] },
);
await stub.start();
const payloads = await got;
await stub.stop();
let pods = 0;
let containers = 0;
for (const p of payloads) {
  for (const e of synchronizeEntries(p)) {
    decodeSyncEntry(p, e);
    if (e.kind === 'pod') pods++;
    else containers++;
  }
}
console.log(`${pods} pods, ${containers} containers`);
