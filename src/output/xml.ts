// Text put into XML (the JUnit reports of `sim --expect`, `sim --replay --compare` and
// `conformance`): the five special characters as entities, and the control characters
// XML 1.0 cannot carry at all (all but tab, newline and carriage return) left out.

// eslint-disable-next-line no-control-regex -- matching them is the point
const XML_FORBIDDEN = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `s` as XML text or attribute value. */
export function xmlText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]).replace(XML_FORBIDDEN, '');
}
