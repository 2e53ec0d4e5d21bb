// -l key=value,key!=value: target labels every fleet query is narrowed to, checked here so
// that what reaches Prometheus is a selector it reads as meant and never a PromQL fragment.
import { excerpt } from '../units/index.js';
import { SelectorError } from './errors.js';

export interface LabelMatcher {
  name: string;
  op: '=' | '!=';
  value: string;
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** "node=n1,job!=x" as matchers; "" as none. Throws SelectorError. */
export function parseSelector(text: string): LabelMatcher[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => {
    const m = /^\s*([^=!\s]*)\s*(!=|=)\s*(.*?)\s*$/.exec(part);
    if (!m) throw new SelectorError(`"${excerpt(part)}" is not key=value or key!=value (several joined by commas)`);
    const [, name = '', op, value = ''] = m;
    if (!LABEL_NAME.test(name))
      throw new SelectorError(
        `"${excerpt(name)}" is not a label name: letters, digits and _, not starting with a digit`,
      );
    if (name.startsWith('__'))
      throw new SelectorError(`${name}: labels starting with __ are Prometheus' own; select by target labels`);
    return { name, op: op as '=' | '!=', value };
  });
}

/** The matchers inside a PromQL selector's braces, values quoted as PromQL strings. */
export function matchersText(matchers: readonly LabelMatcher[]): string {
  return matchers.map((m) => `${m.name}${m.op}${JSON.stringify(m.value)}`).join(',');
}
