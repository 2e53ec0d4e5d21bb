// Experiment (node --import this before bin/run.js): the simulator's `invoke` events, one
// per call relayed to a plugin, reach no listener, so nrictl sim neither builds nor prints
// their lines (refrt prints one line per runtime event, none per plugin call). Measures
// what printing a line per relayed call costs, e.g. at 10 plugins 30 lines per cycle.
import { EventEmitter } from 'node:events';

const emit = EventEmitter.prototype.emit;
EventEmitter.prototype.emit = function (name, event, ...rest) {
  if (name === 'event' && event?.type === 'invoke') return true;
  return emit.call(this, name, event, ...rest);
};
