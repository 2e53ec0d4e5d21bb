// Flags that logs and sync dump share (command files may export only their command).
import { Flags } from '@oclif/core';

export const filterFlags = {
  namespace: Flags.string({ char: 'n', description: 'Only pods in this namespace (a glob: * and ? match; else exact).', helpValue: 'NS' }),
  pod: Flags.string({ description: 'Only this pod name (a glob: * and ? match; else exact).', helpValue: 'NAME' }),
  container: Flags.string({ description: 'Only this container name (a glob: * and ? match; else exact).', helpValue: 'NAME' }),
  label: Flags.string({
    char: 'l',
    description: 'Only objects with this label on the pod or the container (exact key=value; repeat to require several).',
    multiple: true,
    helpValue: 'KEY=VALUE',
  }),
};

export const simFlag = Flags.string({
  description: 'Start an in-process simulated runtime with this scenario and connect to it instead of --socket (try: examples/demo.yaml).',
  helpValue: 'SCENARIO',
});

