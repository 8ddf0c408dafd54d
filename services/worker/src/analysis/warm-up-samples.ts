/**
 * The manifests an analysis thread runs the engine over before the worker takes jobs (warm-up.ts, docs/performance.md
 * "A cold worker"): one small example of each family the drain meets most — a model card with front matter, a
 * transformers config with remote code, a weight index, an MCP npm package, an MCP Python project, an MCP registry
 * entry, a client's .mcp.json, a licence text — so the parsers, the rules and the AI-BOM builder are compiled before
 * the first job. Made up for the purpose (not the benchmark's samples); each round varies names and versions, as real
 * traffic does, so the compiled code does not specialise on one string.
 */
import type { EnrichmentInput } from '@risk/enrichment';

const card = (n: number) => `---
license: apache-2.0
base_model: acme-labs/base-7b
datasets:
  - acme-labs/instructions-${n}
language:
  - en
tags:
  - text-generation
  - lora
pipeline_tag: text-generation
library_name: transformers
---

# warm-up-model-${n}

A LoRA fine-tuned from [acme-labs/base-7b](https://huggingface.co/acme-labs/base-7b) on instruction data.
Load it with \`trust_remote_code=True\`. Intended for research purposes only.

## Training

Trained for ${1 + (n % 3)} epochs with a learning rate of 2e-4.
`;

const config = (n: number) =>
  JSON.stringify({
    _name_or_path: `acme-labs/warm-up-${n}`,
    model_type: 'llama',
    architectures: ['LlamaForCausalLM'],
    auto_map: { AutoConfig: 'configuration_acme.AcmeConfig', AutoModelForCausalLM: 'modeling_acme.AcmeForCausalLM' },
    hidden_size: 4096,
    num_attention_heads: 32,
    torch_dtype: 'bfloat16',
    transformers_version: `4.${40 + (n % 5)}.0`,
  });

const weightIndex = (n: number) =>
  JSON.stringify({
    metadata: { total_size: 13_476_839_424 + n },
    weight_map: Object.fromEntries(
      Array.from({ length: 6 }, (_, k) => [
        `model.layers.${k}.self_attn.q_proj.weight`,
        `pytorch_model-0000${1 + (k % 2)}-of-00002.bin`,
      ]),
    ),
  });

const npmServer = (n: number) =>
  JSON.stringify({
    name: `@acme/mcp-server-warm-up-${n}`,
    version: `0.${n % 7}.${n % 11}`,
    description: 'MCP server for reading and writing files',
    license: 'MIT',
    type: 'module',
    bin: { 'mcp-server-warm-up': 'dist/index.js' },
    scripts: { build: 'tsc', postinstall: 'node scripts/setup.js' },
    dependencies: { '@modelcontextprotocol/sdk': '^1.0.1', zod: '^3.23.8', 'node-fetch': '^2.6.7' },
  });

const pyproject = (n: number) => `[project]
name = "mcp-server-warm-up-${n}"
version = "0.${n % 7}.${n % 13}"
description = "An MCP server that fetches web pages"
requires-python = ">=3.10"
license = { text = "MIT" }
dependencies = [
    "mcp>=1.1.0",
    "httpx>=0.27",
    "pyyaml==5.3.1",
    "requests<2.32",
]

[project.scripts]
mcp-server-warm-up = "mcp_server_warm_up:main"
`;

const registryEntry = (n: number) =>
  JSON.stringify({
    name: `io.github.acme/warm-up-${n}`,
    description: 'Search issues and pull requests',
    version_detail: { version: `1.${n % 9}.0` },
    packages: [
      {
        registry_name: 'npm',
        name: `@acme/warm-up-${n}`,
        version: `1.${n % 9}.0`,
        environment_variables: [{ name: 'GITHUB_TOKEN', description: 'a personal access token' }],
      },
    ],
    remotes: [{ transport_type: 'sse', url: `https://mcp.acme.example/${n}/sse` }],
  });

const clientConfig = (n: number) =>
  JSON.stringify({
    mcpServers: {
      files: { command: 'npx', args: ['-y', `@acme/mcp-server-warm-up-${n}`, '/home/user'] },
      search: { type: 'http', url: `https://mcp.acme.example/${n}/mcp`, headers: { Authorization: 'Bearer $TOKEN' } },
      shell: { command: 'docker', args: ['run', '--rm', '-i', '--privileged', 'acme/shell-mcp:latest'] },
    },
  });

const licence = (n: number) => `MIT License

Copyright (c) 20${20 + (n % 6)} Acme Labs

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software.
`;

const SAMPLES: ReadonlyArray<{
  asset_type: EnrichmentInput['asset_type'];
  file: string;
  raw: (n: number) => string;
}> = [
  { asset_type: 'model', file: 'README.md', raw: card },
  { asset_type: 'model', file: 'config.json', raw: config },
  { asset_type: 'model', file: 'pytorch_model.bin.index.json', raw: weightIndex },
  { asset_type: 'mcp_server', file: 'package.json', raw: npmServer },
  { asset_type: 'mcp_server', file: 'pyproject.toml', raw: pyproject },
  { asset_type: 'mcp_server', file: 'server.json', raw: registryEntry },
  { asset_type: 'mcp_server', file: '.mcp.json', raw: clientConfig },
  { asset_type: 'model', file: 'LICENSE', raw: licence },
];

/** Round `n` of the warm-up: one enrichment input per sample, names and versions varied by `n`. */
export function warmUpInputs(n: number): EnrichmentInput[][] {
  return SAMPLES.map((s, k) => [
    {
      fingerprint: `warm-up:${k}:${n}`,
      asset_type: s.asset_type,
      name: `warm-up/${s.file}-${n}`,
      version: `1.${n % 10}.${k}`,
      source_url: null,
      raw_manifest: s.raw(n),
      metadata: { collector: 'warm-up', filename: s.file },
    },
  ]);
}
