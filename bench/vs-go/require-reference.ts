// `npm run bench:go` runs this first: without the Go reference it says how to build it
// and fails, where `npm run bench` only notes the comparison benches as skipped.
import { requireGoReference } from './reference.js';

const ref = requireGoReference();
console.log(`Go NRI reference: ${ref.dir}`);
