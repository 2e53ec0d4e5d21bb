// The Go runtime's built-in default validator (containerd/nri plugins/default-validator,
// v0.10.0+; reject_sysctl_adjustment from v0.11.0), as containerd 2.2+ and CRI-O 1.34+
// run it: a builtin plugin 00-default-validator, in the invocation list like any other,
// whose ValidateContainerAdjustment runs the checks below in the Go order. The first
// failure is the rejection reason, with the Go wording (double spaces included).
import yaml from 'js-yaml';
import { nri } from '../../api/index.js';

/** The settings, as containerd's `default_validator` table (toml keys in comments). */
export interface DefaultValidatorConfig {
  enable?: boolean; // enable
  rejectOciHookAdjustment?: boolean; // reject_oci_hook_adjustment
  rejectRuntimeDefaultSeccompAdjustment?: boolean; // reject_runtime_default_seccomp_adjustment
  rejectUnconfinedSeccompAdjustment?: boolean; // reject_unconfined_seccomp_adjustment
  rejectCustomSeccompAdjustment?: boolean; // reject_custom_seccomp_adjustment
  rejectNamespaceAdjustment?: boolean; // reject_namespace_adjustment
  rejectSysctlAdjustment?: boolean; // reject_sysctl_adjustment (NRI v0.11.0+)
  requiredPlugins?: string[]; // required_plugins
  tolerateMissingPluginsAnnotation?: string; // tolerate_missing_plugins_annotation
}

export const DEFAULT_VALIDATOR = { index: '00', base: 'default-validator', name: '00-default-validator' } as const;
/** The pod annotation that adds required plugins (pkg/plugin/annotations.go). */
const REQUIRED_PLUGINS_ANNOTATION = 'required-plugins.noderesource.dev';

const GO_BOOLS: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** pkg/plugin GetEffectiveAnnotation: container-scoped, then pod-scoped, then the bare key. */
function effectiveAnnotation(pod: nri.IPodSandbox, key: string, container: string): string | undefined {
  const a = pod.annotations ?? {};
  for (const k of [`${key}/container.${container}`, `${key}/pod`, key]) if (k in a) return a[k];
  return undefined;
}

const quote = (s: string): string => JSON.stringify(s);

/** The rejection reason for one request, or undefined when it passes. */
export function defaultValidation(
  cfg: DefaultValidatorConfig,
  req: nri.IValidateContainerAdjustmentRequest,
): string | undefined {
  const id = req.container?.id ?? '';
  const fo = req.owners?.owners?.[id];
  const simple = (f: nri.Field): string | undefined => fo?.simple?.[f] || undefined;
  const compound = (f: nri.Field): Record<string, string> => fo?.compound?.[f]?.owners ?? {};
  const fail = (what: string): string => `validation error: ${what}`;
  if (req.adjust) {
    const hooks = simple(nri.Field.OciHooks);
    if (cfg.rejectOciHookAdjustment && hooks)
      return fail(
        `${hooks.includes(',') ? 'plugins' : 'plugin'} ${quote(hooks)} attempted restricted OCI hook injection`,
      );
    const seccomp = simple(nri.Field.SeccompPolicy);
    if (seccomp) {
      const profile = req.container?.linux?.seccompProfile;
      const type = profile ? (profile.profileType ?? nri.SecurityProfile.ProfileType.RUNTIME_DEFAULT) : undefined;
      if (
        (type === undefined || type === nri.SecurityProfile.ProfileType.UNCONFINED) &&
        cfg.rejectUnconfinedSeccompAdjustment
      )
        return fail(`plugin ${seccomp} attempted restricted  unconfined seccomp policy adjustment`);
      if (type === nri.SecurityProfile.ProfileType.RUNTIME_DEFAULT && cfg.rejectRuntimeDefaultSeccompAdjustment)
        return fail(`plugin ${seccomp} attempted restricted runtime default seccomp policy adjustment`);
      if (type === nri.SecurityProfile.ProfileType.LOCALHOST && cfg.rejectCustomSeccompAdjustment)
        return fail(`plugin ${seccomp} attempted restricted  custom seccomp policy adjustment`);
    }
    const namespaces = Object.entries(compound(nri.Field.Namespace));
    if (cfg.rejectNamespaceAdjustment && namespaces.length > 0)
      return fail(
        `attempted restricted namespace adjustment by plugin(s) ${namespaces.map(([ns, p]) => `${quote(p)} (namespace ${quote(ns)})`).join(', ')}`,
      );
  }
  const required = requiredPluginsCheck(cfg, req);
  if (required !== undefined) return required;
  if (req.adjust?.linux && cfg.rejectSysctlAdjustment) {
    const owners = Object.keys(req.adjust.linux.sysctl ?? {})
      .map((key) => compound(nri.Field.Sysctl)[key])
      .filter((p): p is string => Boolean(p));
    if (owners.length > 0) return fail(`attempted restricted sysctl adjustment by plugin(s) ${owners.join(', ')}`);
  }
  return undefined;
}

function requiredPluginsCheck(
  cfg: DefaultValidatorConfig,
  req: nri.IValidateContainerAdjustmentRequest,
): string | undefined {
  const pod = req.pod ?? {};
  const container = req.container?.name ?? '';
  const tolerateKey = cfg.tolerateMissingPluginsAnnotation ?? '';
  if (tolerateKey !== '') {
    const value = effectiveAnnotation(pod, tolerateKey, container);
    if (value !== undefined) {
      const tolerate = GO_BOOLS[value];
      if (tolerate === undefined)
        return `invalid ${tolerateKey} annotation ${quote(value)}: strconv.ParseBool: parsing ${quote(value)}: invalid syntax`;
      if (tolerate) return undefined;
    }
  }
  const required = [...(cfg.requiredPlugins ?? [])];
  const annotated = effectiveAnnotation(pod, REQUIRED_PLUGINS_ANNOTATION, container);
  if (annotated !== undefined) {
    let list: unknown;
    try {
      list = yaml.load(annotated);
    } catch (err) {
      // The reason's prefix is Go's; the YAML parser's own words differ from go-yaml's.
      return `invalid ${REQUIRED_PLUGINS_ANNOTATION} annotation ${quote(annotated)}: ${(err as Error).message.split('\n')[0]}`;
    }
    if (list !== null && list !== undefined) {
      if (!Array.isArray(list))
        return `invalid ${REQUIRED_PLUGINS_ANNOTATION} annotation ${quote(annotated)}: not a list of plugin names`;
      required.push(...list.map(String));
    }
  }
  if (required.length === 0) return undefined;
  // pkg/api GetPluginMap: each plugin answers to its name and to its NN-name.
  const present = new Set<string>();
  for (const p of req.plugins ?? []) {
    present.add(p.name ?? '');
    present.add(`${p.index ?? ''}-${p.name ?? ''}`);
  }
  const missing = required.filter((r) => !present.has(r));
  if (missing.length === 0) return undefined;
  return missing.length === 1
    ? `validation error: required plugin ${quote(missing[0])} not present`
    : `validation error: required plugins ${quote(missing.join(','))} not present`;
}
