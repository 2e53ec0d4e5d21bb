import { Flags } from '@oclif/core';
import { DEFAULT_SOCKET_PATH } from '../checks/defaults.js';

export const socketFlag = Flags.string({
  char: 's',
  description: 'Path of the runtime\'s NRI socket.',
  env: 'NRI_SOCKET_PATH',
  default: DEFAULT_SOCKET_PATH,
  helpValue: 'PATH',
});

export const pluginNameFlag = (defaultName: string) =>
  Flags.string({
    description: 'Name this transient plugin registers with (the runtime logs it).',
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
