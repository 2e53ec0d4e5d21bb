// A large, valid scenario file, written the way people write them: YAML in block style,
// or JSON. Each pod carries labels, annotations and one container with env, args and
// resources, about 1 KB of YAML per pod: 23,700 pods make the 25 MB the issue measured.
import { writeFileSync } from 'node:fs';

export interface BigScenario {
  path: string;
  pods: number;
  bytes: number;
}

function pod(i: number) {
  const id = `pod-${String(i).padStart(6, '0')}`;
  return {
    pod: {
      id,
      name: `app-${i % 97}-7d9f8b6c5-${String(i).padStart(5, '0')}`,
      namespace: ['default', 'shop', 'payments', 'monitoring', 'kube-system'][i % 5],
      labels: {
        'app.kubernetes.io/name': `app-${i % 97}`,
        'app.kubernetes.io/part-of': 'bench',
        'pod-template-hash': '7d9f8b6c5',
      },
      annotations: {
        'kubernetes.io/config.source': 'api',
        'kubernetes.io/config.seen': '2024-05-02T09:14:07.331845Z',
        'prometheus.io/scrape': 'true',
      },
      runtime_handler: 'runc',
      cgroup_parent: `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${String(i).padStart(8, '0')}.slice`,
    },
    container: {
      id: `ctr-${String(i).padStart(6, '0')}`,
      pod: id,
      name: `app-${i % 97}`,
      state: 'RUNNING',
      labels: { 'io.kubernetes.container.name': `app-${i % 97}` },
      args: ['/usr/bin/app', '--port=8080', '--log-level=info'],
      env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin', `POD_NAME=app-${i}`, 'GOMAXPROCS=2'],
      resources: { cpu_shares: 512, cpu_quota: 50000, cpu_period: 100000, memory_limit: 536870912, cpus: '0-3' },
    },
  };
}

function yamlMap(m: Record<string, unknown>, indent: string): string {
  let out = '';
  for (const [k, v] of Object.entries(m)) {
    if (Array.isArray(v)) out += `${indent}${k}:\n${v.map((x) => `${indent}  - ${JSON.stringify(x)}\n`).join('')}`;
    else if (typeof v === 'object' && v !== null)
      out += `${indent}${k}:\n${yamlMap(v as Record<string, unknown>, `${indent}  `)}`;
    else out += `${indent}${k}: ${typeof v === 'string' ? JSON.stringify(v) : String(v)}\n`;
  }
  return out;
}

/** Writes a scenario of at least `targetBytes` to `path`, YAML (block style) or JSON. */
export function writeBigScenario(path: string, targetBytes: number, format: 'yaml' | 'json' = 'yaml'): BigScenario {
  const pods: string[] = [];
  const containers: string[] = [];
  let bytes = 0;
  let n = 0;
  while (bytes < targetBytes) {
    const { pod: p, container: c } = pod(n++);
    const a = format === 'yaml' ? `  - ${yamlMap(p, '    ').trimStart()}` : JSON.stringify(p);
    const b = format === 'yaml' ? `  - ${yamlMap(c, '    ').trimStart()}` : JSON.stringify(c);
    pods.push(a);
    containers.push(b);
    bytes += a.length + b.length + 2;
  }
  const text =
    format === 'yaml'
      ? `pods:\n${pods.join('')}containers:\n${containers.join('')}`
      : `{"pods":[\n${pods.join(',\n')}\n],"containers":[\n${containers.join(',\n')}\n]}\n`;
  writeFileSync(path, text);
  return { path, pods: n, bytes: Buffer.byteLength(text) };
}
