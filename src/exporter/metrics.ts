// The exporter's metrics (docs/exporter.md, the contract `nrictl fleet` and deploy/'s
// rules read), through prom-client on a registry of our own. Gauges are drawn from the
// last reading when /metrics is scraped, so a scrape costs the same on a node of 5 pods
// as on one of 5,000: nothing here is per pod or per container.
import { createRequire } from 'node:module';
import type { Counter, Registry } from 'prom-client';
import { EXPORTER_ERROR_KINDS, PLUGIN_STATES, type ExporterErrorKind, type NodeReading } from './reading.js';

type PromClient = typeof import('prom-client');
let promClient: PromClient | undefined;
// Loaded when an exporter is made, as logs and trace do: a command that only imports the
// layer pays nothing for it.
function loadPromClient(): PromClient {
  promClient ??= createRequire(import.meta.url)('prom-client') as PromClient;
  return promClient;
}

const SEVERITIES = ['error', 'warning', 'info'] as const;
const VERDICTS = ['pass', 'fail', 'skip', 'error'] as const;

/** What the registration says at scrape time. */
export interface RegistrationSource {
  /** Registered, synchronized, the connection open. */
  up(): boolean;
  /** From the last successful registration; undefined before the first. */
  runtime(): { runtime: string; version: string; nriVersion: string } | undefined;
  /** Seconds, as Configure gave it; undefined when the runtime did not say. */
}

interface OptionalGauge {
  set(value: number | undefined): void;
}

export class ExporterMetrics {
  readonly registry: Registry;
  private readonly registrationsCounter: Counter;
  private readonly errorsCounter: Counter<'kind'>;
  private reading: NodeReading | undefined;
  private readonly reportTime: OptionalGauge;
  private readonly requestTimeout: OptionalGauge;
  private readonly refreshTime: OptionalGauge;

  constructor(registration: RegistrationSource) {
    const { Counter, Gauge, Registry } = loadPromClient();
    this.registry = new Registry();
    const registers = [this.registry];
    // Gauges drawn afresh from the last reading at every scrape: reset first, so a plugin,
    // finding or check that went away since leaves no stale series behind.
    const gauge = <L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      draw: (set: (labels: Record<L, string>, value: number) => void) => void,
    ): void => {
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          draw((labels, value) => (labelNames.length ? this.set(labels, value) : this.set(value)));
        },
      });
    };
    const last = (): NodeReading | undefined => this.reading;

    gauge(
      'nrictl_nri_up',
      '1 while the runtime accepts nrictl as a plugin (registered, synchronized, connection open), 0 otherwise.',
      [],
      (set) => set({}, registration.up() ? 1 : 0),
    );
    gauge(
      'nrictl_runtime_info',
      'Always 1: the runtime, its version and NRI version (empty when it does not say), from the last successful registration.',
      ['runtime', 'version', 'nri_version'],
      (set) => {
        const r = registration.runtime();
        if (r) set({ runtime: r.runtime, version: r.version, nri_version: r.nriVersion }, 1);
      },
    );
    gauge(
      'nrictl_plugin_info',
      'Always 1: one series per plugin the node knows of, with its state (active, pre-started, external, not-running, dropped, misnamed).',
      ['plugin', 'index', 'state'],
      (set) => {
        for (const p of last()?.plugins ?? []) set({ plugin: p.plugin, index: p.index, state: p.state }, 1);
      },
    );
    gauge('nrictl_plugins', 'Plugins in each state; every state always present.', ['state'], (set) => {
      const counts = last()?.pluginCounts;
      if (counts) for (const state of PLUGIN_STATES) set({ state }, counts[state]);
    });
    gauge(
      'nrictl_doctor_findings',
      "doctor's findings of the last refresh by severity and code.",
      ['severity', 'code'],
      (set) => {
        for (const f of last()?.findings ?? []) set({ severity: f.severity, code: f.code }, f.count);
      },
    );
    gauge(
      'nrictl_doctor_findings_by_severity',
      "doctor's findings of the last refresh by severity; error, warning and info always present.",
      ['severity'],
      (set) => {
        const findings = last()?.findings;
        if (findings)
          for (const severity of SEVERITIES)
            set(
              { severity },
              findings.filter((f) => f.severity === severity).reduce((n, f) => n + f.count, 0),
            );
      },
    );
    gauge(
      'nrictl_conformance_checks',
      'Checks of the last conformance report by verdict; absent when no report is given or it cannot be read.',
      ['verdict'],
      (set) => {
        const c = last()?.conformance;
        if (c) for (const verdict of VERDICTS) set({ verdict }, c.byVerdict[verdict]);
      },
    );
    gauge(
      'nrictl_conformance_check_failed',
      '1 per check that failed or erred in the last conformance report.',
      ['check'],
      (set) => {
        for (const check of last()?.conformance?.failed ?? []) set({ check }, 1);
      },
    );
    // Label-less gauges that may have no value: prom-client shows an unset one as 0, so
    // each is in the registry only while it has one.
    this.reportTime = this.optionalGauge(
      'nrictl_conformance_report_timestamp_seconds',
      'When the last conformance report was written (the file modification time).',
    );
    this.requestTimeout = this.optionalGauge(
      'nrictl_request_timeout_seconds',
      "The runtime's NRI request timeout as Configure gave it; absent when the runtime does not send it.",
    );
    this.refreshTime = this.optionalGauge(
      'nrictl_exporter_refresh_timestamp_seconds',
      "The last time the exporter re-read the node's files and the runtime's metrics.",
    );
    this.registrationsCounter = new Counter({
      name: 'nrictl_exporter_registrations_total',
      help: 'Times the exporter registered with the runtime.',
      registers,
    });
    this.errorsCounter = new Counter({
      name: 'nrictl_exporter_errors_total',
      help: "The exporter's own errors by kind: connect, register, files, runtime-metrics, conformance-report.",
      labelNames: ['kind'],
      registers,
    });
    // Every kind from the start, so that rate() and increase() see the first error.
    for (const kind of EXPORTER_ERROR_KINDS) this.errorsCounter.inc({ kind }, 0);
  }

  /** The reading the next scrapes draw from (the last refresh's). */
  show(reading: NodeReading): void {
    this.reading = reading;
    this.refreshTime.set(reading.atMs / 1000);
    this.reportTime.set(reading.conformance && reading.conformance.writtenAtMs / 1000);
  }

  /** A registration done; `requestTimeoutSeconds` as its Configure gave it (undefined: not sent). */
  registered(requestTimeoutSeconds: number | undefined): void {
    this.registrationsCounter.inc();
    this.requestTimeout.set(requestTimeoutSeconds);
  }

  private optionalGauge(name: string, help: string): OptionalGauge {
    const { Gauge } = loadPromClient();
    const gauge = new Gauge({ name, help, registers: [] });
    let shown = false;
    return {
      set: (value) => {
        if (value === undefined) {
          if (shown) this.registry.removeSingleMetric(name);
          shown = false;
          return;
        }
        gauge.set(value);
        if (!shown) this.registry.registerMetric(gauge);
        shown = true;
      },
    };
  }

  error(kind: ExporterErrorKind): void {
    this.errorsCounter.inc({ kind });
  }
}
