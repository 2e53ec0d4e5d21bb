// A pod's or container's id as crictl prints it. Tables, prompts, plans and doctor's
// findings all name objects by it, so that an id nrictl shows is one crictl shows too.
//
// This file imports nothing of this project, so the output machinery and the views may
// load it directly.

/** Length of an ID that crictl prints: unambiguous in practice, fits a table. */
const SHORT_ID_LENGTH = 13;

/** The first 13 characters of an ID, like crictl's truncated IDs; '' for none. */
export function shortId(id: string | null | undefined): string {
  if (!id) return '';
  return id.length > SHORT_ID_LENGTH ? id.slice(0, SHORT_ID_LENGTH) : id;
}
