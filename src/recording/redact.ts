// Secrets stay on the node: a container's environment often holds passwords, so unless
// the operator asks otherwise a recording keeps each variable's name and replaces its
// value with one fixed marker. Pure: it works on the plain JSON of a request or a change.
import { REDACTED } from './format.js';

type Json = Record<string, unknown>;

/** "NAME=value" becomes "NAME=<redacted>"; an entry without "=" has no value to hide. */
function redactEnvEntry(entry: string): string {
  const eq = entry.indexOf('=');
  return eq < 0 ? entry : `${entry.slice(0, eq + 1)}${REDACTED}`;
}

function redactContainer(ctr: unknown): void {
  const c = ctr as { env?: unknown } | null | undefined;
  if (c && Array.isArray(c.env))
    c.env = (c.env as unknown[]).map((e: unknown) => (typeof e === 'string' ? redactEnvEntry(e) : e));
}

/**
 * Replaces the environment values in a request's JSON, in place: the container's env
 * ("NAME=value") and, in a validation request, the adjustment's env ({key, value}).
 */
export function redactRequest(request: Json): Json {
  redactContainer(request.container);
  const adjust = request.adjust as { env?: unknown } | undefined;
  if (adjust && Array.isArray(adjust.env))
    adjust.env = adjust.env.map((kv: Json) => ('value' in kv ? { ...kv, value: REDACTED } : kv));
  return request;
}

/** The same for a container of the Synchronize state. */
export function redactContainerJson(container: Json): Json {
  redactContainer(container);
  return container;
}

/** A value of a change or a final field: env values are hidden, the rest kept. */
export function redactFieldValue(field: string, value: string | undefined): string | undefined {
  return field === 'env' && value !== undefined ? REDACTED : value;
}
