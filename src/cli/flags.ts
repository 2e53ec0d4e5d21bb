// Flags more than one command shares, defined once.
import { Flags } from '@oclif/core';
import { DEFAULT_SOCKET_PATH } from '../api/socket-path.js';
import { parseDuration } from '../units/index.js';

export const socketFlag = Flags.string({
  char: 's',
  description: "Path of the runtime's NRI socket.",
  env: 'NRI_SOCKET_PATH',
  default: DEFAULT_SOCKET_PATH,
  helpValue: 'PATH',
});

export const pluginNameFlag = (defaultName: string) =>
  Flags.string({
    description: 'Name this transient plugin registers with (the runtime logs it): letters, digits and _ . + - only.',
    default: defaultName,
    helpValue: 'NAME',
  });

export const pluginIndexFlag = (defaultIndex: string) =>
  Flags.string({
    description: 'Two-digit index this transient plugin registers with; it orders plugins on each event.',
    default: defaultIndex,
    helpValue: 'NN',
  });

export const outputFlag = <T extends string>(choices: readonly T[], defaultValue: T) =>
  Flags.option({
    char: 'o',
    description: 'Output format.',
    options: choices,
    default: defaultValue,
  })();

export const timeoutFlag = Flags.string({
  description:
    "How long to wait for the runtime: for the registration and for each answer, such as 5s or 500ms (default: the runtime's own request timeout, else 2s; the registration its own bound, else 5s).",
  helpValue: 'DURATION',
});

/** --timeout as whole milliseconds (rounded up); undefined when not given. Throws DurationError (exit 2). */
export function timeoutMs(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Math.ceil(parseDuration(text, { what: '--timeout' }));
}

export const simFlag = Flags.string({
  description:
    'Start an in-process simulated runtime with this scenario and connect to it instead of --socket (a file, or the built-in demo, shipped as examples/demo.yaml).',
  helpValue: 'SCENARIO',
});

/** --namespace/--pod/--container/--label, shared by logs and sync dump. */
export const filterFlags = {
  namespace: Flags.string({
    char: 'n',
    description: 'Only pods in this namespace (a glob: * and ? match; else exact).',
    helpValue: 'NS',
  }),
  pod: Flags.string({ description: 'Only this pod name (a glob: * and ? match; else exact).', helpValue: 'NAME' }),
  container: Flags.string({
    description: 'Only this container name (a glob: * and ? match; else exact).',
    helpValue: 'NAME',
  }),
  label: Flags.string({
    char: 'l',
    description:
      'Only objects with this label on the pod or the container (exact key=value; repeat to require several).',
    multiple: true,
    helpValue: 'KEY=VALUE',
  }),
};

/** --yes, --dry-run and --force, shared by update and evict. */
export const confirmFlags = {
  yes: Flags.boolean({
    char: 'y',
    description:
      'Send without asking. Required when there is no terminal to ask on (stdin or stdout not a terminal, or CI set).',
  }),
  'dry-run': Flags.boolean({ description: 'Connect, show what would change and the request, and send nothing.' }),
  force: Flags.boolean({
    description:
      'Send even to iSulad, which crashes on any update or eviction a plugin sends through NRI (it frees memory the request owns): without it nrictl refuses there, exit 2, nothing sent. Use isula update or crictl update instead.',
  }),
};

/** The flags every connecting command has. */
export interface ConnectFlags {
  socket: string;
  sim?: string | undefined;
  'plugin-name': string;
  'plugin-index': string;
  timeout?: string | undefined;
}

/** The session options those flags give (src/session's SessionOptions, minus the hooks). */
export function connectOptions(flags: ConnectFlags): {
  target: { socketPath: string; sim: string | undefined };
  name: string;
  index: string;
  timeoutMs: number | undefined;
} {
  return {
    target: { socketPath: flags.socket, sim: flags.sim },
    name: flags['plugin-name'],
    index: flags['plugin-index'],
    timeoutMs: timeoutMs(flags.timeout),
  };
}
