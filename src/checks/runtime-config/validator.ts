// The built-in default validator's settings as a runtime config writes them: containerd
// 2.2+ in [plugins."io.containerd.nri.v1.nri".default_validator] (reject_sysctl_adjustment
// from 2.2.1), CRI-O 1.34+ in [crio.nri.default_validator] with nri_-prefixed keys and no
// sysctl key. Both map onto the same DefaultValidatorConfig of containerd/nri.
import { finding, type Finding } from '../finding.js';

/** DefaultValidatorConfig of containerd/nri (plugins/default-validator), camelCase. */
export interface DefaultValidatorSettings {
  enable?: boolean;
  rejectOciHookAdjustment?: boolean;
  rejectRuntimeDefaultSeccompAdjustment?: boolean;
  rejectUnconfinedSeccompAdjustment?: boolean;
  rejectCustomSeccompAdjustment?: boolean;
  rejectNamespaceAdjustment?: boolean;
  rejectSysctlAdjustment?: boolean;
  requiredPlugins?: string[];
  tolerateMissingPluginsAnnotation?: string;
}

/** Each key of containerd's default_validator table: the setting it gives, and its kind of value. */
export const VALIDATOR_FIELDS = {
  enable: ['enable', 'bool'],
  reject_oci_hook_adjustment: ['rejectOciHookAdjustment', 'bool'],
  reject_runtime_default_seccomp_adjustment: ['rejectRuntimeDefaultSeccompAdjustment', 'bool'],
  reject_unconfined_seccomp_adjustment: ['rejectUnconfinedSeccompAdjustment', 'bool'],
  reject_custom_seccomp_adjustment: ['rejectCustomSeccompAdjustment', 'bool'],
  reject_namespace_adjustment: ['rejectNamespaceAdjustment', 'bool'],
  reject_sysctl_adjustment: ['rejectSysctlAdjustment', 'bool'],
  required_plugins: ['requiredPlugins', 'string-list'],
  tolerate_missing_plugins_annotation: ['tolerateMissingPluginsAnnotation', 'string'],
} as const satisfies Record<string, readonly [keyof DefaultValidatorSettings, 'bool' | 'string' | 'string-list']>;

type ValidatorKey = keyof typeof VALIDATOR_FIELDS;

/** CRI-O's key for each setting (internal/config/nri/nri.go); it has none for sysctl. */
export function crioValidatorKey(key: ValidatorKey): string | undefined {
  if (key === 'reject_sysctl_adjustment') return undefined;
  return key === 'enable' ? 'nri_enable_default_validator' : `nri_validator_${key}`;
}

/**
 * The settings a checked default_validator table gives (values of the wrong type were
 * already reported and are left out). `crio`: read CRI-O's key names.
 */
export function validatorSettings(values: Record<string, unknown>, crio: boolean): DefaultValidatorSettings {
  const out: Record<string, unknown> = {};
  for (const [key, [field]] of Object.entries(VALIDATOR_FIELDS)) {
    const name = crio ? crioValidatorKey(key as ValidatorKey) : key;
    const v = name === undefined ? undefined : values[name];
    if (v !== undefined) out[field] = v;
  }
  return out;
}

/**
 * What lint says of the validator's settings against the plugins installed in
 * `pluginDir` (its NN-name executables; undefined when it cannot be listed).
 */
export function validatorFindings(
  file: string,
  label: string,
  s: DefaultValidatorSettings,
  installed: string[] | undefined,
  pluginDir: string,
): Finding[] {
  const out: Finding[] = [];
  const required = s.requiredPlugins ?? [];
  if (!s.enable) {
    if (required.length > 0 || Object.keys(s).some((k) => k.startsWith('reject')))
      out.push(
        finding(
          'warning',
          file,
          'validator-not-enabled',
          `${label} has settings but no enable = true: the runtime creates no default validator, and they do nothing`,
          'add enable = true, or remove the settings',
        ),
      );
    return out;
  }
  if (installed === undefined) return out;
  // A plugin answers to its name and to its NN-name (pkg/api GetPluginMap); the validator itself is always present.
  const present = new Set(['default-validator', '00-default-validator']);
  for (const entry of installed) {
    present.add(entry);
    present.add(entry.replace(/^\d\d-/, ''));
  }
  for (const name of required) {
    if (present.has(name)) continue;
    out.push(
      finding(
        'error',
        file,
        'required-plugin-missing',
        `required plugin "${name}" is not installed in ${pluginDir}: unless an external plugin of that name is connected, the runtime rejects every container creation (validation error: required plugin "${name}" not present)`,
        `install ${name} in ${pluginDir}, make sure it runs as an external plugin, or remove it from required_plugins`,
      ),
    );
  }
  return out;
}
