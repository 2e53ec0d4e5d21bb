// One bounded HTTP GET (a deadline on the whole exchange, a bound on the body), shared by
// the runtime's metrics scrape (session) and Prometheus' API client (fleet).
export {
  boundedGet,
  BoundedGetError,
  type BoundedGetFailure,
  type BoundedGetOptions,
  type BoundedAnswer,
} from './bounded-get.js';
