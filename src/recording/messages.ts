// Each event's request as a recording holds it: the message the runtime sends for that
// event (CreateContainerRequest, StopPodSandboxRequest, ...), in the protobuf JSON mapping
// that `logs -o json` prints (camelCase names, enums by name, 64-bit integers as decimal
// strings), and back. The JSON is the decoded request's, field for field: what
// WireJsonWriter would write from the runtime's bytes (src/api/wire-json.ts), on one line.
import { Event, EVENT_NAMES, nri } from '../api/index.js';
import { redactContainerJson, redactRequest } from './redact.js';

type Json = Record<string, unknown>;

interface RequestType {
  fromObject(o: Json): object;
  toObject(m: object, opts: object): Json;
}

/** protojson's choices (and those of `logs -o json`): enum names, int64 as strings. */
const CONVERSION = { enums: String, longs: String, bytes: String, json: true } as const;

const EVENT_BY_NAME: ReadonlyMap<string, Event> = new Map(
  Object.entries(EVENT_NAMES).map(([n, name]) => [name, Number(n) as Event]),
);

/** The event a recording names ("CreateContainer"), or undefined for a name this nrictl does not know. */
export function eventByName(name: string): Event | undefined {
  return EVENT_BY_NAME.get(name);
}

function requestType(event: Event): RequestType {
  return (nri as unknown as Record<string, RequestType>)[`${EVENT_NAMES[event]}Request`];
}

/** The request in the JSON a recording holds; env values replaced unless `keepEnv`. */
export function requestJson(event: Event, request: object, keepEnv: boolean): Json {
  const T = requestType(event);
  const json = T.toObject(T.fromObject(request as Json), CONVERSION);
  return keepEnv ? json : redactRequest(json);
}

/** A recorded request as the message it was; throws (protobufjs' words) on a value of the wrong kind. */
export function requestFromJson(event: Event, json: Json): object {
  return requestType(event).fromObject(json);
}

/** A pod of the Synchronize state in a recording's JSON. */
export function podJson(pod: nri.IPodSandbox): Json {
  return nri.PodSandbox.toObject(nri.PodSandbox.fromObject(pod), CONVERSION);
}

export function containerJson(ctr: nri.IContainer, keepEnv: boolean): Json {
  const json = nri.Container.toObject(nri.Container.fromObject(ctr), CONVERSION);
  return keepEnv ? json : redactContainerJson(json);
}

export function podFromJson(json: Json): nri.PodSandbox {
  return nri.PodSandbox.fromObject(json);
}

export function containerFromJson(json: Json): nri.Container {
  return nri.Container.fromObject(json);
}
