// The interactive parts: picking a container and confirming. Only used on a terminal.
import { confirm, select } from '@inquirer/prompts';
import type { nri } from '../api/index.js';
import { alignColumns, containerStateName, shortId, summariseResources } from '../render/index.js';
import { listContainers, type ResolvedContainer } from './resolve.js';

/** Both ends are a terminal and no CI system says otherwise: prompting is possible. */
export function canPrompt(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  return Boolean(process.stdin.isTTY) && Boolean(process.stdout.isTTY) && !ci;
}

/** One line per container, its columns aligned across the list: name, short id, state, cpus, memory. */
export function choiceLines(all: readonly ResolvedContainer[]): string[] {
  return alignColumns(
    all.map((r) => {
      const s = summariseResources(r.container.linux?.resources);
      return [
        r.name,
        shortId(r.container.id),
        containerStateName(r.container.state),
        s.cpus ? `cpus ${s.cpus}` : '',
        s.memoryLimit ? `mem ${s.memoryLimit}` : '',
      ];
    }),
    '  ',
  );
}

/** Lets the operator choose one of the runtime's containers; resolves with it. */
export async function pickContainer(
  pods: readonly nri.IPodSandbox[],
  containers: readonly nri.IContainer[],
  message: string,
): Promise<ResolvedContainer> {
  const all = listContainers(pods, containers);
  const lines = choiceLines(all);
  const id = await select({
    message,
    choices: all.map((r, i) => ({ name: lines[i], value: r.container.id ?? '', short: r.name })),
    pageSize: 15,
  });
  return all.find((r) => r.container.id === id)!;
}

export function confirmSend(message: string): Promise<boolean> {
  return confirm({ message, default: false });
}
