// The flags more than one command has, defined once so that the same thing has the same
// name everywhere: --socket, --sim SCENARIO, --timeout, --plugin-dir, --conf-dir, -o.
// Old spellings keep working for one release, hidden, with oclif's one-line deprecation
// warning; their values are parsed here so that a bad one gets our message and exit 2.
import { Flags } from '@oclif/core';
import chalk from 'chalk';
import type { Event } from '../api/index.js';
import { DEFAULT_SOCKET_PATH } from '../api/socket-path.js';
import type { OutputFormat } from '../output/index.js';
import { parseDuration, parseQuantity } from '../units/index.js';
import { usageError } from './errors.js';

export const socketFlag = Flags.string({
  char: 's',
  description: "Path of the runtime's NRI socket.",
  env: 'NRI_SOCKET_PATH',
  default: DEFAULT_SOCKET_PATH,
  helpValue: 'PATH',
});

/**
 * --socket where the runtime config names the socket (doctor, plugins): no default, so
 * that the config's socket is used unless one is given; the same name, letter and
 * variable as socketFlag.
 */
export const nodeSocketFlag = (description: string) =>
  Flags.string({ char: 's', description, env: 'NRI_SOCKET_PATH', helpValue: 'PATH' });

/** --metrics-url: containerd's own NRI metrics (2.3 and later), which name every plugin (plugins, trace). */
export const metricsUrlFlag = (description = '') =>
  Flags.string({
    description: `Read the runtime's metrics here (http://HOST:PORT/v1/metrics, or HOST:PORT) instead of the address in its config.${description ? ` ${description}` : ''}`,
    helpValue: 'URL',
  });

/** --probes (trace): around the known plugins, or on every free index. */
export const probesFlag = Flags.option({
  description:
    'around: probes only around the known plugins; all: a probe on every free index (discovery; costs one probe hop per probe on every event).',
  options: ['around', 'all'] as const,
  default: 'around' as const,
})();

/** --index (trace): where external plugins sit, which no file names. */
export const externalIndexesFlag = Flags.string({
  description: 'Indexes of plugins not in the plugin directory (external ones), comma-separated.',
  helpValue: 'NN,...',
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

/** logs' --plugin-index, whose default depends on --record (99, or 00 so that requests are recorded before any plugin changed them). */
export const logsPluginIndexFlag = Flags.string({
  description:
    'Two-digit index this transient plugin registers with; it orders plugins on each event (default: 99; 00 with --record, so that the requests are recorded before any plugin changed them).',
  helpValue: 'NN',
});

/**
 * -o: the formats a command offers, table first (the default, for people). `text`, the
 * old name of the default in logs, update, evict, trace and sim, still means table.
 */
export const outputFlag = (formats: readonly OutputFormat[], extra: readonly string[] = []) => {
  const accepted: readonly string[] = [...formats, ...extra];
  return Flags.custom<string>({
    char: 'o',
    description: `Output format: ${accepted.join(', ')}.`,
    helpValue: accepted.join('|'),
    default: formats[0],
    parse: async (input: string): Promise<string> => {
      if (input === 'text' && formats.includes('table')) {
        process.stderr.write(`${chalk.yellow('Warning:')} -o text is deprecated: use -o table (the default)\n`);
        return 'table';
      }
      // A usage error (exit 2), as every mistaken flag value is.
      if (!accepted.includes(input)) throw usageError(`expected one of ${accepted.join(', ')}, not "${input}"`);
      return input;
    },
  })();
};

/** A duration flag in whole milliseconds (rounded up): "2s", "500ms", "1m30s"; a bare number is refused. */
export const durationFlag = (description: string) =>
  Flags.custom<number>({
    description,
    helpValue: 'DURATION',
    parse: async (input: string, _cmd, opts): Promise<number> => flagDuration(input, opts.name),
  })();

/** The same, with a default ("2s"). */
export const durationFlagWithDefault = (description: string, defaultValue: string) =>
  Flags.custom<number>({
    description,
    helpValue: 'DURATION',
    default: Math.ceil(parseDuration(defaultValue)),
    defaultHelp: async () => defaultValue,
    parse: async (input: string, _cmd, opts): Promise<number> => flagDuration(input, opts.name),
  })();

/** Whole milliseconds (rounded up); the error names the flag: "--timeout 5: a duration needs a unit". */
function flagDuration(input: string, flag: string | undefined): number {
  return Math.ceil(parseDuration(input, flag === undefined ? {} : { what: `--${flag}` }));
}

export const timeoutFlag = durationFlag(
  "How long to wait for the runtime: for the registration and for each answer, such as 5s or 500ms (default: the runtime's own request timeout, else 2s; the registration its own bound, else 5s).",
);

/**
 * --cri-socket for a command that talks to the runtime's CRI: the path, or crictl's
 * unix:///path. No default: where it is unset the runtime's config names it, else a
 * runtime's well-known socket (src/cri locateCriSocket, which says which it chose).
 * crictl's variable names it too.
 */
export const criSocketFlag = Flags.string({
  description:
    "The runtime's CRI socket (PATH or unix://PATH; default: the one its config names, else the first of /run/containerd/containerd.sock, /var/run/crio/crio.sock, /var/run/isulad.sock that is there).",
  env: 'CONTAINER_RUNTIME_ENDPOINT',
  helpValue: 'PATH',
});

export const simFlag = Flags.string({
  description:
    'Start an in-process simulated runtime with this scenario and connect to it instead of --socket (a file, or the built-in demo, shipped as examples/demo.yaml).',
  helpValue: 'SCENARIO',
});

/** --runtime: judge by containerd's, CRI-O's or iSulad's rules (validate, lint, doctor). */
export const runtimeRulesFlag = (description: string) =>
  Flags.option({ description, options: ['containerd', 'crio', 'isulad'] as const })();

/** --strict: warnings fail a check too (validate, lint, doctor). */
/** The node's root (doctor, plugins): configs and the paths they name are taken under it. */
export const rootFlag = Flags.string({
  description: "The node's root directory: configs are looked for, and the paths they name are taken, under it.",
  helpValue: 'DIR',
  default: '/',
});

/** Runtime config files named instead of the ones found on the node (doctor, plugins). */
export const runtimeConfigsFlag = (runtimes: string) =>
  Flags.string({
    description: `Use this ${runtimes} config file (repeat for CRI-O drop-ins) instead of the ones found on the node.`,
    helpValue: 'FILE',
    multiple: true,
  });

export const strictFlag = Flags.boolean({ description: 'Exit with 3 when there are warnings but no errors.' });

/** --plugin-dir: a directory of NN-name plugin executables. The old --plugin-path still works, with a warning. */
export const pluginDirFlag = (description: string) =>
  Flags.string({ description, helpValue: 'DIR', aliases: ['plugin-path'], deprecateAliases: true });

/** --conf-dir: the drop-in configuration directory of plugins (NN-name.conf, name.conf). */
export const confDirFlag = (description: string) =>
  Flags.string({ description, helpValue: 'DIR', aliases: ['plugin-config-path'], deprecateAliases: true });

/** --namespace/--pod/--container/--label, shared by logs, sync dump and trace. */
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

/** What the filter flags select, as the libraries take it (src/observe FilterSpec). */
export function filterOf(flags: {
  namespace?: string | undefined;
  pod?: string | undefined;
  container?: string | undefined;
  label?: string[] | undefined;
}): {
  namespace?: string | undefined;
  pod?: string | undefined;
  container?: string | undefined;
  labels?: string[] | undefined;
} {
  return { namespace: flags.namespace, pod: flags.pod, container: flags.container, labels: flags.label };
}

/**
 * --events: event names (create, update, runpod, CreateContainer ...; the groups all,
 * pod, container), parsed to the subscription mask. `check` refuses events the command
 * cannot follow. The event table loads with the protobuf bindings, so only when given.
 */
export const eventsFlag = (description: string, check?: (events: readonly Event[]) => void) =>
  Flags.custom<number>({
    char: 'e',
    description,
    helpValue: 'LIST',
    parse: async (input: string): Promise<number> => {
      const { EventNameError, eventMask, parseEventNames } = await import('../api/index.js');
      const events = parseEventNames(input);
      if (events.length === 0) throw new EventNameError(input, 'no event given: name at least one, e.g. create,update');
      check?.(events);
      return eventMask(events);
    },
  })();

/** --buffer: records held while the output is behind (logs, trace). */
export const bufferFlag = (what: string, defaultValue: number) =>
  Flags.integer({
    description: `${what} held while the output is behind; beyond that they are dropped and counted.`,
    default: defaultValue,
    min: 1,
    helpValue: 'N',
  });

/** --metrics-addr: serve Prometheus metrics while a stream runs (logs, trace). */
export const metricsAddrFlag = (whileWhat: string) =>
  Flags.string({
    description: `Serve Prometheus metrics on HOST:PORT/metrics while ${whileWhat} (:PORT for every interface).`,
    helpValue: 'HOST:PORT',
  });

/** The exporter's --metrics-addr: it is what the exporter is for, so it has a default and a port of its own. */
export const exporterMetricsAddrFlag = Flags.string({
  description: 'Serve Prometheus metrics on HOST:PORT/metrics (:PORT or 0.0.0.0:PORT for every interface).',
  default: '127.0.0.1:9641',
  helpValue: 'HOST:PORT',
});

/** --record and its companions, shared by logs and trace. */
export const recordFlags = {
  record: Flags.string({
    description:
      'Also write a recording of what is seen to FILE (JSON Lines, docs/recording.md; gzip-compressed when FILE ends in .gz): the runtime, the Synchronize state and every event as the runtime sent it, for nrictl sim --replay. Written after the runtime is answered, through a bounded queue of --buffer records; records that do not fit are dropped and counted. Created 0600, put in place whole at the end (Ctrl-C and SIGTERM included); an existing FILE is kept unless --force.',
    helpValue: 'FILE',
  }),
  'record-max': Flags.custom<number>({
    description:
      'End the recording (not the command) once its lines reach SIZE (e.g. 100Mi, 1G; before compression); the trailer counts what was left out.',
    helpValue: 'SIZE',
    dependsOn: ['record'],
    parse: async (input: string): Promise<number> => parseQuantity(input),
  })(),
  'record-env': Flags.boolean({
    description:
      "Keep the containers' environment values in the recording (by default each value is replaced with <redacted>, names kept): they often hold passwords.",
    dependsOn: ['record'],
  }),
  force: Flags.boolean({ description: 'Replace the --record file if it exists.', dependsOn: ['record'] }),
};

/** What the record flags ask for, as the libraries take it; warns once when --record-env keeps secrets. */
export function recordingOf(
  flags: {
    record?: string | undefined;
    'record-max'?: number | undefined;
    'record-env'?: boolean | undefined;
    force?: boolean | undefined;
    buffer: number;
  },
  nrictlVersion: string,
  warn: (text: string) => void,
):
  | { file: string; force: boolean; maxBytes?: number; keepEnv: boolean; capacity: number; nrictlVersion: string }
  | undefined {
  if (flags.record === undefined) return undefined;
  if (flags['record-env'])
    warn(
      `--record-env: ${flags.record} will hold the containers' environment values (passwords, tokens): keep it as safe as the node`,
    );
  return {
    file: flags.record,
    force: flags.force === true,
    ...(flags['record-max'] !== undefined ? { maxBytes: flags['record-max'] } : {}),
    keepEnv: flags['record-env'] === true,
    capacity: flags.buffer,
    nrictlVersion,
  };
}

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
  timeout?: number | undefined;
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
    timeoutMs: flags.timeout,
  };
}

/**
 * The flag behind a library option, for messages: a library names what it was given
 * ("pluginDir"), the command line names the flag the user typed.
 */
const OPTION_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  socketPath: '--socket',
  sim: '--sim',
  timeoutMs: '--timeout',
  pluginDir: '--plugin-dir',
  confDir: '--conf-dir',
  expect: '--expect',
  scenario: 'SCENARIO',
  runtimeConfig: '--runtime-config',
  root: '--root',
  out: '--out',
  events: '--events',
  name: '--plugin-name',
  index: '--plugin-index',
  nriVersion: '--nri-version',
  preset: '--preset',
  generate: '--pods',
  metricsUrl: '--metrics-url',
  validator: '--validator',
  runtimeName: '--runtime-name',
  runtimeVersion: '--runtime-version',
  keepRunning: '--keep-running',
  record: '--record',
  replay: '--replay',
  criSocketPath: '--cri-socket',
  signaturePolicy: '--signature-policy',
  criSocket: '--cri-socket',
  prometheus: '--prometheus',
  selector: '--selector',
  image: '--image',
  focus: '--focus',
  skip: '--skip',
  intervalMs: '--interval',
});

export function flagOfOption(option: string): string | undefined {
  return OPTION_FLAGS[option];
}
