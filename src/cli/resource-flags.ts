// The flags of `nrictl update` that become LinuxResources fields. Values are taken as
// text and judged by src/control's parseResourceFlags, so every bad value gets its
// message (and exit 2) before anything connects.
import { Flags } from '@oclif/core';

const text = (description: string, helpValue: string, extra: { aliases?: string[] } = {}) =>
  Flags.string({ description, helpValue, helpGroup: 'RESOURCE', ...extra });

const repeated = (description: string, helpValue: string) =>
  Flags.string({ description, helpValue, helpGroup: 'RESOURCE', multiple: true });

export const resourceFlags = {
  cpus: text(
    "CPUs the container may run on, a cpuset list such as 0-3,8 (NRI's cpuset; for a number of CPUs' worth of time use --cpu-limit).",
    'CPUSET',
    { aliases: ['cpuset-cpus'] },
  ),
  mems: text('Memory nodes the container may allocate from, a list such as 0-1.', 'NODES', {
    aliases: ['cpuset-mems'],
  }),
  'cpu-shares': text("Relative CPU weight (cpu.shares, 2 to 262144; 1024 is one CPU's worth).", 'N', {
    aliases: ['cpu-share'],
  }),
  'cpu-quota': text('CFS quota: microseconds of CPU time per period (-1: no limit).', 'MICROSECONDS'),
  'cpu-period': text('CFS period in microseconds (1000 to 1000000).', 'MICROSECONDS'),
  'cpu-limit': text(
    "CPUs' worth of time, docker-style: 1.5 sets the quota to 1.5 periods (of --cpu-period, the container's period, or 100000).",
    'CPUS',
  ),
  'cpu-realtime-runtime': text(
    'Realtime scheduling runtime in microseconds per realtime period (-1: no limit).',
    'MICROSECONDS',
  ),
  'cpu-realtime-period': text('Realtime scheduling period in microseconds.', 'MICROSECONDS'),
  memory: text(
    'Memory limit: a Kubernetes quantity (512Mi, 2G) or bytes; -1 for no limit. A bare number under 1Mi draws a warning (a missing unit).',
    'SIZE',
  ),
  'memory-reservation': text('Memory soft limit (reservation), a quantity such as 256Mi.', 'SIZE'),
  'memory-swap': text('Memory plus swap limit, a quantity; -1 for no limit.', 'SIZE'),
  swappiness: text('Memory swappiness, 0 to 100.', 'N'),
  'hugepage-limit': repeated(
    'Hugepage limit per page size, SIZE=LIMIT such as 2MB=1Gi (repeat for several sizes).',
    'SIZE=LIMIT',
  ),
  'blockio-class': text("Block I/O class (as configured in the runtime's blockio configuration).", 'CLASS'),
  'rdt-class': text('RDT (Intel RDT / resctrl) class.', 'CLASS'),
  'pids-limit': text('Maximum number of processes (-1: no limit).', 'N'),
  unified: repeated(
    'A cgroup v2 file and its value, KEY=VALUE such as memory.high=1G (repeat for several).',
    'KEY=VALUE',
  ),
};
