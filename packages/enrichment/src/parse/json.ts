// JSON (and YAML read as data) classified by shape: listings, tool lists, extensions, notebooks, MCP configs,
// weight indexes, Hugging Face configs, Keras/tokenizer/onnx configs, npm package.json, agent configs.
import type { EnrichmentInput, ParsedManifest } from '../types';
import { isObj, str, strList } from '../util';
import { append, filesFrom, genericNameVersion, toolsFrom } from './common';
import { parseAgentExtras, parseClientServers, parseMcpbManifest, parseRegistryServer } from './mcp';
import { parseNpm } from './packages-npm';
import { isExtensionManifest, isNotebook, parseExtension, parseNotebook } from '../formats';

/** A Hugging Face Hub repository id: `owner/name`, nothing else. */
const HUB_ID = /^[\w.-]{1,96}\/[\w.-]{1,96}$/;

export function classifyJson(p: ParsedManifest, j: unknown, input: EnrichmentInput): void {
  p.format = 'json';
  p.raw_json = j;
  if (Array.isArray(j)) {
    if (
      j.every(
        (x) => typeof x === 'string' || (isObj(x) && (typeof x.path === 'string' || typeof x.rfilename === 'string')),
      )
    ) {
      p.kind = 'file_listing';
      append(p.files, filesFrom(j));
    } else if (j.some((x) => isObj(x) && typeof x.name === 'string' && ('inputSchema' in x || 'description' in x))) {
      p.kind = 'mcp_tools';
      append(p.tools, toolsFrom(j));
    } else p.kind = 'json';
    return;
  }
  if (!isObj(j)) {
    p.kind = 'json';
    return;
  }
  if (isExtensionManifest(j)) {
    parseExtension(p, j);
    return;
  }
  if (isNotebook(j)) {
    parseNotebook(p, j);
    return;
  }
  const servers = isObj(j.mcpServers)
    ? j.mcpServers
    : isObj(j.mcp_servers)
      ? j.mcp_servers
      : isObj(j.servers) &&
          !Array.isArray(j.servers) &&
          Object.values(j.servers).some((s) => isObj(s) && ('command' in s || 'url' in s))
        ? j.servers
        : null;
  const schemaStr = str(j.$schema) ?? '';
  if (servers && !('packages' in j)) {
    p.kind = input.asset_type === 'agent' || 'agents' in j || 'model' in j ? 'agent_config' : 'mcp_client_config';
    parseClientServers(
      p,
      servers,
      isObj(j.mcpServers) ? 'mcpServers' : isObj(j.mcp_servers) ? 'mcp_servers' : 'servers',
    );
    if (p.kind === 'agent_config') parseAgentExtras(p, j);
    return;
  }
  if (isObj(j.weight_map)) {
    p.kind = 'weight_index';
    const seen = new Set<string>();
    for (const k of Object.keys(j.weight_map)) {
      const f = j.weight_map[k];
      if (typeof f === 'string') seen.add(f);
    }
    for (const f of [...seen].sort()) p.files.push({ path: f });
    return;
  }
  if (
    /modelcontextprotocol/.test(schemaStr) ||
    ((Array.isArray(j.packages) || Array.isArray(j.remotes)) &&
      typeof j.name === 'string' &&
      (j.name.includes('/') || 'version_detail' in j))
  ) {
    parseRegistryServer(p, j);
    return;
  }
  if (('dxt_version' in j || 'manifest_version' in j) && (isObj(j.server) || isObj(j.mcp))) {
    parseMcpbManifest(p, j);
    return;
  }
  if (typeof j._class_name === 'string' && '_diffusers_version' in j) {
    // diffusers model_index.json: the pipeline class and its components
    p.kind = 'hf_config';
    p.config = {
      architectures: [j._class_name],
      model_type: 'diffusers',
      name_or_path: str(j._name_or_path),
      auto_map: null,
      transformers_version: null,
    };
    return;
  }
  if ('auto_map' in j || 'architectures' in j || ('model_type' in j && !('name' in j))) {
    p.kind = 'hf_config';
    p.config = {
      architectures: strList(j.architectures),
      model_type: str(j.model_type),
      name_or_path: str(j._name_or_path),
      auto_map: isObj(j.auto_map) ? j.auto_map : null,
      transformers_version: str(j.transformers_version),
    };
    if (typeof j.custom_ops_library === 'string') p.custom_ops.push(j.custom_ops_library);
    // `_name_or_path` is where the weights were loaded from before this config was saved: for a fine-tune, its base
    // (issue 18 item 6). Only a Hub id (`owner/name`) of another model than the named asset: local paths name
    // nothing, an unnamed asset cannot be told apart from its own id, and the same name under another owner is a
    // copy (R14), not a parent
    const origin = p.config.name_or_path;
    const own = (input.name ?? '').toLowerCase();
    const repo = (id: string): string => id.slice(id.lastIndexOf('/') + 1).toLowerCase();
    if (origin && own && HUB_ID.test(origin) && repo(origin) !== repo(own)) p.base_models = [origin];
    return;
  }
  const agentish =
    input.asset_type === 'agent' ||
    'agents' in j ||
    'instructions' in j ||
    'system_prompt' in j ||
    ('model' in j && typeof j.model === 'string');
  if (Array.isArray(j.tools) && !agentish && !('name' in j && 'version' in j && 'dependencies' in j)) {
    p.kind = 'mcp_tools';
    append(p.tools, toolsFrom(j.tools));
    return;
  }
  if (isObj(j.result) && Array.isArray(j.result.tools)) {
    p.kind = 'mcp_tools';
    append(p.tools, toolsFrom(j.result.tools));
    return;
  }
  if (typeof j.class_name === 'string' && 'config' in j) {
    p.kind = 'keras_config';
    p.keras_config = j;
    return;
  }
  if (typeof j.chat_template === 'string' || Array.isArray(j.chat_template)) {
    p.kind = 'tokenizer_config';
    p.chat_template = typeof j.chat_template === 'string' ? j.chat_template : JSON.stringify(j.chat_template);
    return;
  }
  if (isObj(j.model) && (isObj(j.model.decoder) || 'custom_ops_library' in j.model || 'custom_ops_library' in j)) {
    p.kind = 'onnx_genai_config';
    const co = str(j.custom_ops_library) ?? str(j.model.custom_ops_library);
    if (co) p.custom_ops.push(co);
    return;
  }
  if (
    typeof j.name === 'string' &&
    ('version' in j || 'dependencies' in j || 'scripts' in j || 'devDependencies' in j)
  ) {
    parseNpm(p, j);
    return;
  }
  if ('agents' in j || 'instructions' in j || 'system_prompt' in j || input.asset_type === 'agent') {
    p.kind = 'agent_config';
    parseAgentExtras(p, j);
    return;
  }
  p.kind = 'json';
  genericNameVersion(p, j);
}
