// The public API's examples for the STIX and SARIF exchange routes (docs/architecture.md "Examples"; docs/formats.md
// "STIX", "SARIF"): a partner's STIX 2.1 bundle imported into org_acme's threats, the org's threats exported as a
// bundle, and the example asset's findings as a SARIF 2.1.0 log. The export and SARIF objects are what
// @risk/enrichment's buildStixBundle / buildSarif render for EXAMPLE_THREAT and EXAMPLE_ASSET_EXPANDED (deterministic:
// UUIDv5 ids, stable partial fingerprints), so the documented output is byte-for-byte what the API answers.
import type { z } from '../zod';
import type { ZSarifLog } from './assets';
import type { StixBundleBody, ThreatImport, ZStixBundle } from './threats-stix';

/** A partner feed's bundle: a file-hash indicator, a URL indicator, the ATLAS technique and the link between them. */
export const EXAMPLE_STIX_IMPORT_BUNDLE: StixBundleBody = {
  type: 'bundle',
  id: 'bundle--6a0e3f9c-4d2b-4c8e-b1a7-2f5d9e8c3b41',
  objects: [
    {
      type: 'identity',
      spec_version: '2.1',
      id: 'identity--8f2d4c1e-5b7a-4e39-9c06-3d1a7b5e2f94',
      created: '2026-11-20T14:02:11.000Z',
      modified: '2026-11-20T14:02:11.000Z',
      name: 'Acme Threat Intel',
      identity_class: 'organization',
    },
    {
      type: 'indicator',
      spec_version: '2.1',
      id: 'indicator--3c9e1a7f-2b4d-4f8a-a6e5-91d0c7b3e2a8',
      created: '2026-11-20T14:02:11.000Z',
      modified: '2026-11-21T08:45:30.000Z',
      created_by_ref: 'identity--8f2d4c1e-5b7a-4e39-9c06-3d1a7b5e2f94',
      name: 'Trojanised Llama adapter weights (pickle reverse shell)',
      description: 'adapter_model.bin opens a reverse shell to 203.0.113.54:4444 when torch.load unpickles it.',
      indicator_types: ['malicious-activity'],
      pattern: "[file:hashes.'SHA-256' = '4f1c9a0e7d3b8265f0a1c47e9d2b3a86c5e1f07b9d4a2c68e3f5b1a0d7c9e243']",
      pattern_type: 'stix',
      pattern_version: '2.1',
      valid_from: '2026-11-20T14:02:11.000Z',
      confidence: 90,
      labels: ['malicious_model'],
    },
    {
      type: 'indicator',
      spec_version: '2.1',
      id: 'indicator--b71f0d2e-9c3a-4e56-8d1b-5a2f6e4c9073',
      created: '2026-11-20T14:02:11.000Z',
      modified: '2026-11-20T14:02:11.000Z',
      created_by_ref: 'identity--8f2d4c1e-5b7a-4e39-9c06-3d1a7b5e2f94',
      name: 'Hugging Face repository hosting the trojanised adapter',
      indicator_types: ['malicious-activity'],
      pattern: "[url:value = 'https://huggingface.co/llama-tools/llama-3.1-8b-instruct-lora']",
      pattern_type: 'stix',
      pattern_version: '2.1',
      valid_from: '2026-11-20T14:02:11.000Z',
      confidence: 75,
    },
    {
      type: 'attack-pattern',
      spec_version: '2.1',
      id: 'attack-pattern--fbb9ffc8-2174-5fa5-8277-cfc030b2e662',
      created: '2026-11-20T14:02:11.000Z',
      modified: '2026-11-20T14:02:11.000Z',
      name: 'Unsafe AI Artifacts',
      external_references: [
        {
          source_name: 'mitre-atlas',
          external_id: 'AML.T0011.000',
          url: 'https://atlas.mitre.org/techniques/AML.T0011.000',
        },
      ],
    },
    {
      type: 'relationship',
      spec_version: '2.1',
      id: 'relationship--e4a8c2f1-6d9b-4b07-a3e5-0f7c1d8b2a96',
      created: '2026-11-20T14:02:11.000Z',
      modified: '2026-11-20T14:02:11.000Z',
      relationship_type: 'indicates',
      source_ref: 'indicator--3c9e1a7f-2b4d-4f8a-a6e5-91d0c7b3e2a8',
      target_ref: 'attack-pattern--fbb9ffc8-2174-5fa5-8277-cfc030b2e662',
    },
  ],
};

/** What importing EXAMPLE_STIX_IMPORT_BUNDLE answers: one threat per indicator, the technique folded into the first. */
export const EXAMPLE_THREAT_IMPORT: ThreatImport = {
  object: 'threat_import',
  bundle_id: 'bundle--6a0e3f9c-4d2b-4c8e-b1a7-2f5d9e8c3b41',
  livemode: true,
  summary: {
    imported: 2,
    merged: 2,
    skipped: 1,
  },
  results: [
    {
      stix_id: 'identity--8f2d4c1e-5b7a-4e39-9c06-3d1a7b5e2f94',
      type: 'identity',
      status: 'skipped',
      reason: 'unsupported_type',
      message: 'Objects of type identity are not imported.',
      threat_ids: [],
      changed: false,
    },
    {
      stix_id: 'indicator--3c9e1a7f-2b4d-4f8a-a6e5-91d0c7b3e2a8',
      type: 'indicator',
      status: 'imported',
      reason: null,
      message: 'A new threat.',
      threat_ids: ['thr_01m83k4q9rz7c2vd8ewx5fn1ta'],
      changed: true,
    },
    {
      stix_id: 'indicator--b71f0d2e-9c3a-4e56-8d1b-5a2f6e4c9073',
      type: 'indicator',
      status: 'imported',
      reason: null,
      message: 'A new threat.',
      threat_ids: ['thr_01m83k4q9rz7c2vd8ewx5fn1tb'],
      changed: true,
    },
    {
      stix_id: 'attack-pattern--fbb9ffc8-2174-5fa5-8277-cfc030b2e662',
      type: 'attack-pattern',
      status: 'merged',
      reason: 'related',
      message: 'Merged into the threats it is related to.',
      threat_ids: ['thr_01m83k4q9rz7c2vd8ewx5fn1ta'],
      changed: false,
    },
    {
      stix_id: 'relationship--e4a8c2f1-6d9b-4b07-a3e5-0f7c1d8b2a96',
      type: 'relationship',
      status: 'merged',
      reason: 'related',
      message: 'Merged into the threats it is related to.',
      threat_ids: ['thr_01m83k4q9rz7c2vd8ewx5fn1ta'],
      changed: false,
    },
  ],
};

/** EXAMPLE_THREAT as a STIX 2.1 bundle (GET /v1/threats/{threat_id}/export; the org's only threat, so also the export). */
export const EXAMPLE_STIX_EXPORT_BUNDLE: z.infer<typeof ZStixBundle> = {
  type: 'bundle',
  id: 'bundle--53e9a65d-767c-593b-b011-b98231bc138d',
  objects: [
    {
      type: 'attack-pattern',
      spec_version: '2.1',
      id: 'attack-pattern--5ce93958-ea3f-5faf-a13e-7c4afbd7e871',
      created: '1970-01-01T00:00:00.000Z',
      modified: '1970-01-01T00:00:00.000Z',
      name: 'Embed Malware',
      external_references: [
        {
          source_name: 'mitre-atlas',
          external_id: 'AML.T0018.002',
          url: 'https://atlas.mitre.org/techniques/AML.T0018.002',
        },
      ],
    },
    {
      type: 'attack-pattern',
      spec_version: '2.1',
      id: 'attack-pattern--fbb9ffc8-2174-5fa5-8277-cfc030b2e662',
      created: '1970-01-01T00:00:00.000Z',
      modified: '1970-01-01T00:00:00.000Z',
      name: 'Unsafe AI Artifacts',
      external_references: [
        {
          source_name: 'mitre-atlas',
          external_id: 'AML.T0011.000',
          url: 'https://atlas.mitre.org/techniques/AML.T0011.000',
        },
      ],
    },
    {
      type: 'course-of-action',
      spec_version: '2.1',
      id: 'course-of-action--2f3a5614-38c7-5cc2-808b-c95c019d6141',
      created: '2026-11-22T09:30:55.000Z',
      modified: '2026-11-22T09:30:55.000Z',
      created_by_ref: 'identity--def1c291-50e5-5c5b-9db6-f2d3b35773da',
      name: 'Remediation: Backdoored LoRA adapter exfiltrates prompts',
      description: 'Remove the adapter; load adapters from safetensors only.',
    },
    {
      type: 'identity',
      spec_version: '2.1',
      id: 'identity--def1c291-50e5-5c5b-9db6-f2d3b35773da',
      created: '1970-01-01T00:00:00.000Z',
      modified: '1970-01-01T00:00:00.000Z',
      name: 'org_acme',
      identity_class: 'organization',
    },
    {
      type: 'indicator',
      spec_version: '2.1',
      id: 'indicator--ab558cf2-32b0-5ed2-b817-9c031a0ed1c0',
      created: '2026-11-22T09:30:55.000Z',
      modified: '2026-11-22T09:30:55.000Z',
      created_by_ref: 'identity--def1c291-50e5-5c5b-9db6-f2d3b35773da',
      name: 'Backdoored LoRA adapter exfiltrates prompts',
      description:
        'Adapter weights ship as pickle (adapter_model.bin) whose reduce hook posts prompts to a remote host at load time.',
      confidence: 85,
      external_references: [
        {
          source_name: 'source',
          url: 'https://intel.acme.example/reports/2026-117',
        },
      ],
      indicator_types: ['malicious-activity'],
      pattern: "[url:value = 'https://huggingface.co/acme-ai/llama-3.1-8b-support-lora']",
      pattern_type: 'stix',
      pattern_version: '2.1',
      valid_from: '2026-11-22T09:30:55.000Z',
      x_risk_threat_id: 'thr_01m81bye277js3qqwbbgm64xhv',
      x_risk_category: 'malicious_model',
      x_risk_severity: 'high',
      x_risk_penalty: 30,
      x_risk_affected_asset_types: ['model'],
    },
    {
      type: 'relationship',
      spec_version: '2.1',
      id: 'relationship--1c379469-fc09-564e-b69c-8bcaacffb9fe',
      created: '2026-11-22T09:30:55.000Z',
      modified: '2026-11-22T09:30:55.000Z',
      created_by_ref: 'identity--def1c291-50e5-5c5b-9db6-f2d3b35773da',
      relationship_type: 'indicates',
      source_ref: 'indicator--ab558cf2-32b0-5ed2-b817-9c031a0ed1c0',
      target_ref: 'attack-pattern--5ce93958-ea3f-5faf-a13e-7c4afbd7e871',
    },
    {
      type: 'relationship',
      spec_version: '2.1',
      id: 'relationship--3117dfa6-8670-558c-9ff2-a79cf4d6798a',
      created: '2026-11-22T09:30:55.000Z',
      modified: '2026-11-22T09:30:55.000Z',
      created_by_ref: 'identity--def1c291-50e5-5c5b-9db6-f2d3b35773da',
      relationship_type: 'mitigates',
      source_ref: 'course-of-action--2f3a5614-38c7-5cc2-808b-c95c019d6141',
      target_ref: 'indicator--ab558cf2-32b0-5ed2-b817-9c031a0ed1c0',
    },
    {
      type: 'relationship',
      spec_version: '2.1',
      id: 'relationship--7e7d63e5-c758-5565-a90c-8aad947fb4e1',
      created: '2026-11-22T09:30:55.000Z',
      modified: '2026-11-22T09:30:55.000Z',
      created_by_ref: 'identity--def1c291-50e5-5c5b-9db6-f2d3b35773da',
      relationship_type: 'indicates',
      source_ref: 'indicator--ab558cf2-32b0-5ed2-b817-9c031a0ed1c0',
      target_ref: 'attack-pattern--fbb9ffc8-2174-5fa5-8277-cfc030b2e662',
    },
  ],
};

/** GET /v1/assets/{fingerprint}/findings?format=sarif for the example asset. */
export const EXAMPLE_FINDINGS_SARIF: z.infer<typeof ZSarifLog> = {
  $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
  version: '2.1.0',
  runs: [
    {
      tool: {
        driver: {
          name: 'risk-enrichment',
          version: '1.0.0',
          rules: [
            {
              id: 'R01',
              name: 'Pickle-based weight files without a safetensors alternative',
              shortDescription: {
                text: 'Pickle-based weight files without a safetensors alternative',
              },
              fullDescription: {
                text: 'Loading .bin/.pt/.pth/.ckpt/.pkl/.pickle/.joblib/.dill runs the pickle VM, which can execute arbitrary code.',
              },
              help: {
                text: 'Loading .bin/.pt/.pth/.ckpt/.pkl/.pickle/.joblib/.dill runs the pickle VM, which can execute arbitrary code.\nPrefer a safetensors/GGUF/ONNX copy; scan pickles (ModelScan/picklescan) and load with weights_only=True.\n- §3 R01\n- MITRE ATLAS AML.T0011.000 Unsafe AI Artifacts: https://atlas.mitre.org/techniques/AML.T0011.000\n- MITRE ATLAS AML.T0010.003 Model: https://atlas.mitre.org/techniques/AML.T0010.003',
              },
              defaultConfiguration: {
                level: 'error',
              },
              properties: {
                category: 'unsafe_serialization',
                'security-severity': '8.0',
                tags: ['security', 'ai-risk', 'unsafe_serialization', 'AML.T0011.000', 'AML.T0010.003'],
              },
              helpUri: 'https://atlas.mitre.org/techniques/AML.T0011.000',
            },
            {
              id: 'R10',
              name: 'Use-restricted or custom licence',
              shortDescription: {
                text: 'Use-restricted or custom licence',
              },
              fullDescription: {
                text: 'Llama/Gemma/OpenRAIL/other licences carry use restrictions that flow to derivatives.',
              },
              help: {
                text: 'Llama/Gemma/OpenRAIL/other licences carry use restrictions that flow to derivatives.\nReview the licence terms and record acceptance; propagate obligations downstream.\n- §3 R10; also a custom licence text with use-restriction clauses (confidence 0.6)',
              },
              defaultConfiguration: {
                level: 'note',
              },
              properties: {
                category: 'license',
                'security-severity': '3.0',
                tags: ['security', 'ai-risk', 'license'],
              },
            },
          ],
        },
      },
      automationDetails: {
        id: 'risk-intel/asset/hf:acme-ai/llama-3.1-8b-support-lora/',
      },
      columnKind: 'unicodeCodePoints',
      results: [
        {
          ruleId: 'R01',
          ruleIndex: 0,
          level: 'error',
          message: {
            text: 'Pickle-based weight files without a safetensors alternative: Loading .bin/.pt/.pth/.ckpt/.pkl/.pickle/.joblib/.dill runs the pickle VM, which can execute arbitrary code.',
          },
          locations: [
            {
              physicalLocation: {
                artifactLocation: {
                  uri: 'pkg:huggingface/acme-ai/llama-3.1-8b-support-lora',
                },
              },
              logicalLocations: [
                {
                  name: 'acme-ai/llama-3.1-8b-support-lora',
                  fullyQualifiedName: 'hf:acme-ai/llama-3.1-8b-support-lora',
                  kind: 'module',
                },
              ],
            },
          ],
          partialFingerprints: {
            'riskFindingIdentity/v1': '7a6a49b63f63dcf03425b5db805ee3c5',
          },
          properties: {
            fingerprint: 'hf:acme-ai/llama-3.1-8b-support-lora',
            asset_type: 'model',
            severity: 'high',
            confidence: 0.9,
            category: 'unsafe_serialization',
            attack_techniques: ['AML.T0011.000'],
            cve_ids: [],
            threat_ids: ['thr_01m81bye277js3qqwbbgm64xhv'],
            remediation: 'Publish and load safetensors weights; scan pickles before loading.',
          },
        },
        {
          ruleId: 'R10',
          ruleIndex: 1,
          level: 'note',
          message: {
            text: 'Use-restricted or custom licence: Llama/Gemma/OpenRAIL/other licences carry use restrictions that flow to derivatives.',
          },
          locations: [
            {
              physicalLocation: {
                artifactLocation: {
                  uri: 'pkg:huggingface/acme-ai/llama-3.1-8b-support-lora',
                },
              },
              logicalLocations: [
                {
                  name: 'acme-ai/llama-3.1-8b-support-lora',
                  fullyQualifiedName: 'hf:acme-ai/llama-3.1-8b-support-lora',
                  kind: 'module',
                },
              ],
            },
          ],
          partialFingerprints: {
            'riskFindingIdentity/v1': '276f5e1e24d4d853eefe6c45f9f5919d',
          },
          properties: {
            fingerprint: 'hf:acme-ai/llama-3.1-8b-support-lora',
            asset_type: 'model',
            severity: 'low',
            confidence: 1,
            category: 'license',
            attack_techniques: [],
            cve_ids: [],
            threat_ids: [],
            remediation: 'Review the licence terms and record acceptance; propagate obligations downstream.',
          },
        },
      ],
      properties: {
        assets: [
          {
            fingerprint: 'hf:acme-ai/llama-3.1-8b-support-lora',
            asset_type: 'model',
            intrinsic_risk_score: 62,
            intrinsic_risk_severity: 'high',
          },
        ],
      },
    },
  ],
};

/** GET /v1/assets?format=sarif: the same log, named for the asset list run. */
export const EXAMPLE_ASSET_LIST_SARIF: z.infer<typeof ZSarifLog> = {
  ...EXAMPLE_FINDINGS_SARIF,
  runs: EXAMPLE_FINDINGS_SARIF.runs.map((run) => ({ ...run, automationDetails: { id: 'risk-intel/assets/all/' } })),
};
