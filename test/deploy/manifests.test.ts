import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import YAML from 'yaml';
import { parseQuantity } from '../../src/units/index.js';

// No cluster at hand: the manifests are validated against a subset of the
// Kubernetes schema that the tests load (k8s-subset.schema.json), then held to the
// least privilege that works.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const schema = JSON.parse(readFileSync(join(root, 'test/deploy/k8s-subset.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
  schema,
);

type Obj = Record<string, any>;
function documents(file: string): Obj[] {
  const docs = YAML.parseAllDocuments(readFileSync(join(root, 'deploy', file), 'utf8'));
  for (const d of docs) expect(d.errors, `${file}: YAML errors`).toEqual([]);
  return docs.map((d) => d.toJS() as Obj).filter((d) => d !== null);
}
function schemaErrors(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
function daemonSet(file: string): Obj {
  const ds = documents(file).find((d) => d.kind === 'DaemonSet');
  expect(ds, `${file} has a DaemonSet`).toBeDefined();
  return ds!;
}
const FILES = [
  'namespace.yaml',
  'daemonset-logs.yaml',
  'daemonset-doctor.yaml',
  'daemonset-trace.yaml',
  'daemonset-conformance.yaml',
  'daemonset-exporter.yaml',
  'prometheus/servicemonitor.yaml',
];
const COMMAND: Record<string, string> = {
  'daemonset-logs.yaml': 'logs',
  'daemonset-doctor.yaml': 'doctor',
  'daemonset-trace.yaml': 'trace',
  'daemonset-conformance.yaml': 'conformance',
  'daemonset-exporter.yaml': 'exporter',
};
const SOCKET_DIR = '/var/run/nri';

describe('the schema the tests load', () => {
  const ds = (): Obj => structuredClone(daemonSet('daemonset-logs.yaml'));
  it('rejects what the API server would (missing fields, bad types, bad enums, bad quantities)', () => {
    const noContainers = ds();
    noContainers.spec.template.spec.containers = [];
    expect(schemaErrors(noContainers).join()).toMatch(/containers/);
    const badUser = ds();
    badUser.spec.template.spec.containers[0].securityContext.runAsUser = 'root';
    expect(schemaErrors(badUser).join()).toMatch(/runAsUser must be integer/);
    const badQuantity = ds();
    badQuantity.spec.template.spec.containers[0].resources.limits.memory = '160MB';
    expect(schemaErrors(badQuantity).join()).toMatch(/memory must match pattern/);
    const badType = ds();
    badType.spec.template.spec.volumes[0].hostPath.type = 'Dir';
    expect(schemaErrors(badType).join()).toMatch(/hostPath\/type must be equal to one of/);
  });
  it('rejects misspelt fields, which the API server would drop silently', () => {
    const typo = ds();
    const sc = typo.spec.template.spec.containers[0].securityContext;
    sc.readOnlyRootFileSystem = sc.readOnlyRootFilesystem;
    delete sc.readOnlyRootFilesystem;
    expect(schemaErrors(typo).join()).toMatch(/must NOT have additional properties/);
  });
});

describe.each(FILES)('deploy/%s', (file) => {
  it('is valid against the Kubernetes schema', () => {
    const docs = documents(file);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(schemaErrors(doc), `${doc.kind} ${doc.metadata?.name}`).toEqual([]);
  });
});

describe.each([
  'daemonset-logs.yaml',
  'daemonset-doctor.yaml',
  'daemonset-trace.yaml',
  'daemonset-conformance.yaml',
  'daemonset-exporter.yaml',
])('deploy/%s runs with least privilege', (file) => {
  const ds = daemonSet(file);
  const pod = ds.spec.template.spec as Obj;
  const containers = pod.containers as Obj[];

  it('is consistent: the selector selects the pods, every mount has its volume and every volume is mounted', () => {
    expect(ds.metadata.namespace).toBe('nrictl');
    expect(ds.spec.template.metadata.labels).toMatchObject(ds.spec.selector.matchLabels);
    const volumes = new Set((pod.volumes as Obj[]).map((v) => v.name));
    const mounted = new Set(containers.flatMap((c) => (c.volumeMounts as Obj[]).map((m) => m.name)));
    expect(mounted).toEqual(volumes);
  });

  it('has no privileges beyond the socket: nothing privileged, no capabilities, no escalation, read-only root', () => {
    expect(pod.hostNetwork).toBe(false);
    // Only the exporter sees the host's processes: its plugin states come from them where the runtime serves no metrics.
    expect(pod.hostPID).toBe(file === 'daemonset-exporter.yaml');
    expect(pod.hostIPC).toBe(false);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    for (const c of containers) {
      const sc = c.securityContext as Obj;
      expect(sc.privileged).toBe(false);
      expect(sc.allowPrivilegeEscalation).toBe(false);
      expect(sc.readOnlyRootFilesystem).toBe(true);
      expect(sc.capabilities).toEqual({ drop: ['ALL'] });
    }
  });

  it('runs as root only because it mounts the NRI socket, and says why', () => {
    const mountsSocket = containers.some((c) => (c.volumeMounts as Obj[]).some((m) => m.mountPath === SOCKET_DIR));
    for (const c of containers) {
      const user = c.securityContext.runAsUser ?? pod.securityContext.runAsUser;
      if (user === 0) expect(mountsSocket, 'root without the socket').toBe(true);
      else expect(c.securityContext.runAsNonRoot ?? pod.securityContext.runAsNonRoot).toBe(true);
    }
    expect(readFileSync(join(root, 'deploy', file), 'utf8')).toMatch(
      /root-owned 0600 NRI\s+(#\s+)?socket|root-owned, mode 0600/,
    );
  });

  it('mounts exactly the host paths it needs, read-only except the socket directory', () => {
    const configs = ['/etc/containerd', '/etc/crio', '/etc/isulad'];
    const expected = {
      'daemonset-logs.yaml': [SOCKET_DIR],
      'daemonset-trace.yaml': [SOCKET_DIR, '/opt/nri/plugins'],
      'daemonset-doctor.yaml': [SOCKET_DIR, '/opt/nri/plugins', '/etc/nri/conf.d', ...configs],
      // The CRI sockets' directories, read-only: connecting to a socket needs no writable mount.
      'daemonset-conformance.yaml': [SOCKET_DIR, '/run/containerd', '/var/run/crio', ...configs],
      'daemonset-exporter.yaml': [SOCKET_DIR, '/opt/nri/plugins', '/etc/nri/conf.d', ...configs],
    }[file]!;
    const hostVolumes = new Map(
      (pod.volumes as Obj[]).filter((v) => v.hostPath).map((v) => [v.name, v.hostPath.path as string]),
    );
    expect([...hostVolumes.values()].sort()).toEqual([...expected].sort());
    for (const v of pod.volumes as Obj[])
      expect(Object.keys(v).sort(), `volume ${v.name}`).toSatisfy(
        (keys: string[]) => keys.includes('hostPath') || keys.includes('emptyDir'),
      );
    for (const c of containers) {
      for (const m of c.volumeMounts as Obj[]) {
        const hostPath = hostVolumes.get(m.name);
        if (hostPath === undefined) continue;
        expect(m.mountPath, `${m.name} is mounted where the tool looks for it`).toBe(hostPath);
        if (hostPath === SOCKET_DIR) expect(m.readOnly ?? false).toBe(false);
        else expect(m.readOnly, `${hostPath} read-only`).toBe(true);
      }
    }
  });

  it('runs on every node whatever its taints', () => {
    expect(pod.tolerations).toContainEqual({ operator: 'Exists' });
  });

  it('requests and limits CPU and memory, requests within limits', () => {
    const cpu = (q: string): number => (q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000);
    for (const c of containers) {
      const { requests, limits } = c.resources as Obj;
      expect(cpu(requests.cpu)).toBeLessThanOrEqual(cpu(limits.cpu));
      expect(parseQuantity(requests.memory)).toBeLessThanOrEqual(parseQuantity(limits.memory));
      expect(parseQuantity(limits.memory)).toBeGreaterThanOrEqual(64 * 2 ** 20); // node itself needs this much
    }
  });

  it.skipIf(COMMAND[file] === undefined)('runs the command with JSON output for the log pipeline', () => {
    const c = containers[0];
    const line = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
    const command = COMMAND[file];
    expect(line).toMatch(new RegExp(`(^|nrictl )${command} --output json`));
    expect((c.env as Obj[]).find((e) => e.name === 'NRI_SOCKET_PATH')?.value).toBe(`${SOCKET_DIR}/nri.sock`);
  });
});

describe('deploy/daemonset-trace.yaml', () => {
  const ds = daemonSet('daemonset-trace.yaml');
  const c = ds.spec.template.spec.containers[0] as Obj;
  it('serves the metrics on the port its scrape annotations name', () => {
    const a = ds.spec.template.metadata.annotations as Obj;
    expect(a['prometheus.io/scrape']).toBe('true');
    const port = (c.ports as Obj[]).find((p) => p.name === 'metrics')!;
    expect(String(port.containerPort)).toBe(a['prometheus.io/port']);
    const args = (c.args as string[]).join(' ');
    expect(args).toContain(`--metrics-addr :${port.containerPort}`);
    expect(args).not.toContain('--validator');
  });
});

describe('deploy/daemonset-conformance.yaml', () => {
  const ds = daemonSet('daemonset-conformance.yaml');
  const pod = ds.spec.template.spec as Obj;
  const script = (pod.containers[0].args as string[]).join('\n');
  it('runs the suite once per node, without asking, then idles rather than run it again', () => {
    expect(script.split('\n').filter((l) => l.includes('nrictl '))).toEqual(['nrictl conformance --output json --yes']);
    expect(script).not.toMatch(/while|until|for /);
    expect(script).toMatch(/exec sleep infinity/);
    expect(ds.spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });
  it('leaves its cleanup room after SIGTERM', () => {
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(60);
  });
});

describe('deploy/Dockerfile', () => {
  const text = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
  const lines = text.split('\n').filter((l) => l.trim() && !l.trimStart().startsWith('#'));
  it('builds in one stage and ships only the packed tarball on node:20-slim', () => {
    const froms = lines.filter((l) => l.startsWith('FROM '));
    expect(froms).toEqual(['FROM node:20-slim AS build', 'FROM node:20-slim']);
    expect(text).toMatch(/RUN npm ci /);
    expect(text).toMatch(/npm run build/);
    expect(text).toMatch(/npm pack/);
    expect(text).toMatch(/COPY --from=build \/pack\//);
    expect(text).toMatch(/npm install --global --omit=dev .*nrictl-\*\.tgz/);
  });
  it('runs as a numeric non-root user by default', () => {
    const users = lines.filter((l) => l.startsWith('USER '));
    expect(users.length).toBeGreaterThan(0);
    const last = users.at(-1)!.slice(5).trim();
    expect(last).toMatch(/^[0-9]+:[0-9]+$/);
    expect(Number(last.split(':')[0])).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^CMD |^ENTRYPOINT /);
    expect(text).toMatch(/ENTRYPOINT \["nrictl"\]/);
  });
  it('keeps local builds and dependencies out of the build context', () => {
    const ignored = readFileSync(join(root, 'deploy/Dockerfile.dockerignore'), 'utf8').split('\n');
    for (const p of ['.git', 'node_modules', 'dist', '*.tgz']) expect(ignored).toContain(p);
  });
});

// The exporter, and how Prometheus finds it: the names here are the contract that
// `nrictl fleet` and deploy/prometheus/rules read (docs/exporter.md).
describe('deploy/daemonset-exporter.yaml and its scrape configs', () => {
  const ds = daemonSet('daemonset-exporter.yaml');
  const pod = ds.spec.template.spec as Obj;
  const c = pod.containers[0] as Obj;
  const port = (c.ports as Obj[]).find((p) => p.name === 'metrics')!;
  const [service, monitor] = documents('prometheus/servicemonitor.yaml');
  const scrape = (YAML.parse(readFileSync(join(root, 'deploy/prometheus/scrape-config.yaml'), 'utf8')) as Obj)
    .scrape_configs as Obj[];
  const podLabels = ds.spec.template.metadata.labels as Record<string, string>;

  it('serves on every address at port 9641, named metrics, as its annotations say', () => {
    expect(port.containerPort).toBe(9641);
    expect((c.args as string[]).join(' ')).toMatch(/^exporter( |$).*--metrics-addr 0\.0\.0\.0:9641/);
    const a = ds.spec.template.metadata.annotations as Obj;
    expect(a['prometheus.io/scrape']).toBe('true');
    expect(a['prometheus.io/port']).toBe('9641');
  });

  it('is restarted when it stops answering, never because the runtime is down', () => {
    expect(c.livenessProbe.httpGet).toEqual({ path: '/metrics', port: 'metrics' });
    expect(c.readinessProbe).toBeUndefined();
  });

  it('the Service selects the exporter pods and reaches their metrics port', () => {
    expect(service).toMatchObject({ kind: 'Service', metadata: { name: 'nrictl-exporter', namespace: 'nrictl' } });
    expect(podLabels).toMatchObject(service.spec.selector as Obj);
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.ports).toEqual([{ name: 'metrics', port: 9641, targetPort: 'metrics', protocol: 'TCP' }]);
  });

  it('the ServiceMonitor scrapes that Service as job nrictl-exporter, with node from the pod’s node', () => {
    expect(monitor).toMatchObject({ kind: 'ServiceMonitor', metadata: { namespace: 'nrictl' } });
    const spec = monitor.spec as Obj;
    expect(service.metadata.labels).toMatchObject(spec.selector.matchLabels as Obj);
    expect(spec.namespaceSelector.matchNames).toEqual([service.metadata.namespace]);
    const [endpoint] = spec.endpoints as Obj[];
    expect(endpoint.port).toBe('metrics');
    expect(endpoint.relabelings).toEqual(
      expect.arrayContaining([
        { action: 'replace', sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' },
        { action: 'replace', replacement: 'nrictl-exporter', targetLabel: 'job' },
      ]),
    );
  });

  it('the plain scrape config finds the exporter pods (pod role), keeps the metrics port, sets node', () => {
    expect(scrape).toHaveLength(1);
    const job = scrape[0];
    expect(job.job_name).toBe('nrictl-exporter');
    const [sd] = job.kubernetes_sd_configs as Obj[];
    expect(sd.role).toBe('pod');
    expect(sd.namespaces.names).toEqual([ds.metadata.namespace]);
    const selector = Object.fromEntries(
      (sd.selectors[0].label as string).split(',').map((kv) => kv.split('=') as [string, string]),
    );
    expect(selector).toEqual(ds.spec.selector.matchLabels);
    expect(job.relabel_configs).toEqual(
      expect.arrayContaining([
        { source_labels: ['__meta_kubernetes_pod_container_port_name'], action: 'keep', regex: port.name },
        { source_labels: ['__meta_kubernetes_pod_node_name'], action: 'replace', target_label: 'node' },
      ]),
    );
  });
});

describe('deploy/prometheus/rules', () => {
  const rules = YAML.parse(readFileSync(join(root, 'deploy/prometheus/rules/nrictl.rules.yaml'), 'utf8')) as Obj;
  const tests = YAML.parse(readFileSync(join(root, 'deploy/prometheus/rules/nrictl.rules.test.yaml'), 'utf8')) as Obj;
  const alerts = (rules.groups as Obj[]).flatMap((g) => g.rules as Obj[]).map((r) => r.alert as string);
  const cases = (tests.tests as Obj[]).flatMap((t) => t.alert_rule_test as Obj[]);

  it('covers what issue 38 asks for', () => {
    expect(alerts).toEqual(
      expect.arrayContaining([
        'NrictlNRIDown',
        'NrictlPluginDropped',
        'NrictlPluginLatencyNearTimeout',
        'NrictlErrorFindings',
        'NrictlConformanceFailed',
        'NrictlExporterAbsent',
        'NrictlExporterDown',
      ]),
    );
  });

  it.each(alerts)('%s has a unit test where it fires and one where it stays quiet', (alert) => {
    const mine = cases.filter((c) => c.alertname === alert);
    expect(
      mine.some((c) => (c.exp_alerts as Obj[]).length > 0),
      'fires',
    ).toBe(true);
    expect(
      mine.some((c) => (c.exp_alerts as Obj[]).length === 0),
      'stays quiet',
    ).toBe(true);
  });

  it('every alert says its severity and names what to run', () => {
    for (const r of (rules.groups as Obj[]).flatMap((g) => g.rules as Obj[])) {
      expect(['critical', 'warning'], r.alert as string).toContain(r.labels.severity);
      expect(r.annotations.summary, r.alert as string).toBeTruthy();
    }
  });
});

describe('deploy/prometheus/grafana-dashboard.json', () => {
  const dash = JSON.parse(readFileSync(join(root, 'deploy/prometheus/grafana-dashboard.json'), 'utf8')) as Obj;
  const exprs = (dash.panels as Obj[]).flatMap((p) => (p.targets as Obj[]).map((t) => t.expr as string));
  it('has panels with queries, on a datasource chosen at import', () => {
    expect(dash.uid).toBe('nrictl-fleet');
    expect(exprs.length).toBeGreaterThan(8);
    for (const p of dash.panels as Obj[]) expect(p.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
  });
  it('asks only for metrics the exporter and trace serve', () => {
    const contract = [
      'nrictl_nri_up',
      'nrictl_runtime_info',
      'nrictl_plugin_info',
      'nrictl_plugins',
      'nrictl_doctor_findings',
      'nrictl_doctor_findings_by_severity',
      'nrictl_conformance_checks',
      'nrictl_conformance_check_failed',
      'nrictl_exporter_errors_total',
      'nrictl_exporter_registrations_total',
      'nrictl_trace_plugin_latency_seconds_bucket',
      'nrictl_trace_request_timeout_seconds',
    ];
    const used = new Set(exprs.flatMap((e) => e.match(/nrictl_[a-z_]+/g) ?? []));
    for (const name of used) expect(contract, name).toContain(name);
  });
});

describe('deploy/daemonset-exporter.yaml sees the host’s processes, and says why', () => {
  it('hostPID with the reason in the manifest', () => {
    expect(daemonSet('daemonset-exporter.yaml').spec.template.spec.hostPID).toBe(true);
    expect(readFileSync(join(root, 'deploy/daemonset-exporter.yaml'), 'utf8')).toMatch(
      /without the host's PID namespace every installed plugin would read\s+#\s+as not running/,
    );
  });

  it('what hostPID exposes is said in the manifest and in docs/exporter.md: command lines, and signals to root', () => {
    const manifest = readFileSync(join(root, 'deploy/daemonset-exporter.yaml'), 'utf8');
    expect(manifest).toMatch(/What it\s+#\s+exposes: every host process's pid, command line/);
    expect(manifest).toMatch(/the kernel lets a uid-0 process signal any host process of uid 0/);
    const doc = readFileSync(join(root, 'docs/exporter.md'), 'utf8');
    expect(doc).toContain('**What `hostPID: true` exposes**');
    expect(doc).toMatch(/lets a process of uid 0 signal any other\s+process of uid 0 without a capability/);
  });
});
