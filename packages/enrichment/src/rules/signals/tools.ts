// What a manifest's MCP servers and tools can do, read once per evaluation and shared by the capability rules
// (docs/enrichment.md R16–R20: tool descriptions, names, input schemas and server names).
import { OFFENSIVE_TOOLS, RECON_TOOLS } from './commands';
import { isKnownServerWith, knownServers } from './servers';
import { hasHtmlComment } from './text';
import type { RuleContext } from '../define';
import type { ToolDef } from '../../types';
import { isObj, uniq } from '../../util';
// manifests of the MCP family configure or describe MCP servers and agents: names there are what an agent is given
import { inFamily } from '../../formats';

/** Paths to credentials and agent configuration named in a tool description. */
const SENSITIVE_PATH_RE =
  /~\/\.ssh|\bid_rsa\b|\.ssh\/|\bmcp\.json\b|(?:^|[\s/"'`])\.env\b|\.aws\/credentials|\.cursor\/|\.netrc|\/etc\/passwd|claude_desktop_config/i;
/** Injection indicators in tool descriptions (R16). */
const POISON: Array<[string, { test(text: string): boolean }]> = [
  ['important_tag', /<\s*important\s*>/i],
  [
    'ignore_instructions',
    /ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier|other) (?:instructions|prompts|rules|directions)/i,
  ],
  [
    'concealment',
    /do not (?:tell|mention|inform|reveal|notify|show)|don't (?:tell|mention|reveal)|without (?:telling|informing|notifying) the user|the user (?:must not|should not) (?:know|see)/i,
  ],
  ['sensitive_path', SENSITIVE_PATH_RE],
  ['invisible_chars', /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/],
  ['html_comment', { test: hasHtmlComment }],
  [
    'cross_tool_reference',
    // a named other tool ("before using the send_email tool"); "call this tool first, before using any other tool" is
    // the tool ordering itself first, not an instruction attached to another tool
    /(?:before|after|instead of|when) (?:using|calling|invoking) (?:the |any )?[`'"]?(?!(?:any|other|another|this|each|every|a)\b)[\w-]+[`'"]? tool|(?:all|every) (?:other )?tools? (?:must|should)|side ?note/i,
  ],
  [
    'exfiltration',
    /(?:send|forward|include|pass|upload) (?:the |all |any )?(?:contents?|data|keys?|secrets?|credentials?|tokens?|conversation|messages?) (?:of |from |to |as )/i,
  ],
];
/** The subject of a sensitive path (`~/.ssh/config` → ssh, `.aws/credentials` → aws). */
const SENSITIVE_SUBJECT = /\b(ssh|id_rsa|aws|netrc|passwd|cursor|mcp|claude|env)\b/i;
/**
 * A sensitive path as the only indicator, in a tool named for that path (`generate_ssh_config` writing
 * `~/.ssh/config`): the tool's own function, reported as credential reach (R20), not a hidden instruction. Poisoning
 * steers the agent somewhere the tool's name does not say (docs/enrichment.md R16).
 */
function namesItsOwnFile(name: string, text: string, indicators: readonly string[]): boolean {
  if (indicators.length !== 1 || indicators[0] !== 'sensitive_path') return false;
  const path = SENSITIVE_PATH_RE.exec(text)?.[0] ?? '';
  const subject = SENSITIVE_SUBJECT.exec(path)?.[1]?.toLowerCase();
  return !!subject && name.toLowerCase().includes(subject === 'id_rsa' ? 'ssh' : subject);
}
const SHELL_NAME =
  /(?:^|[_\-.])(exec|execute|shell|bash|sh|zsh|terminal|run[_-]?command|run[_-]?code|run[_-]?script|cmd|powershell|repl|eval|python|subprocess)(?:$|[_\-.])/i;
const SHELL_DESC =
  /\b(?:shell commands?|bash|powershell|terminal|run (?:a |any |arbitrary )?(?:shell |system )?commands?|execute (?:arbitrary |shell |system |python |javascript |)?(?:code|commands?|scripts?)|python repl|code interpreter)\b/i;
const FS_WRITE_NAME =
  /(?:write|edit|create|delete|remove|move|rename|mkdir|upload|append|patch)[_-]?(?:file|files|directory|dir|folder)|(?:file|directory)[_-]?(?:write|delete|remove|move)|git[_-](?:commit|add|reset|checkout|create[_-]branch|push|merge|rebase)|^(?:rm|mv|write|edit)$/i;
const FS_WRITE_DESC =
  /\b(?:write|writes|overwrite|delete|deletes|remove|modify|edit|create) (?:a |the |new |an? existing |)?(?:files?|director(?:y|ies)|folders?)\b|\bcommits? changes\b|\bstag(?:e|es|ing) (?:file|change)/i;
const FS_READ_NAME =
  /(?:read|get|list|search|find)[_-]?(?:file|files|directory|dir|folder|text[_-]?file|media[_-]?file)|directory[_-]?tree|git[_-](?:status|diff|log|show)/i;
const NET_NAME =
  /(?:^|[_\-.])(fetch|http|https|request|curl|wget|browse|browser|navigate|puppeteer|playwright|scrape|crawl|web[_-]?search|download|url|webhook|email|send[_-]?mail|slack|post)(?:$|[_\-.])/i;
const NET_DESC =
  /\b(?:fetch(?:es)? (?:a |any |the )?url|http requests?|web (?:page|content|search)|browser|internet|download(?:s)? (?:from|a)|send (?:an )?e-?mail)\b/i;
/** Moving money: payments, purchases, invoicing, wallets, swaps, and payment providers by name (plural forms too:
 * "blocks hallucinated purchases", "invoicing"). */
const PAY =
  /\b(payments?|transfer[_-]?funds|checkout|stripe|paypal|mollie|adyen|braintree|razorpay|klarna|invoices?|invoicing|wallets?|purchases?|buy|payouts?|refunds?|swaps?|limit orders?|trading)\b/i;
/** Messaging that reaches people outside the session (the payment and messaging capability). */
const MESSAGING =
  /(?:^|[\s/_-])(twilio|sms|whatsapp|telegram|sendgrid|mailgun|send[_-]?(?:mail|email|message))(?:$|[\s/_-])/i;
/** Infrastructure control servers: container/cluster exec, remote shells and firewall/router administration (their
 * APIs run commands on and change the policy of network devices). */
const INFRA_EXEC =
  /(?:^|[\s/_-])(docker|kubernetes|kubectl|k8s|ssh|ansible|terraform|fortigate|fortinet|pfsense|opnsense|mikrotik|routeros)(?:$|[\s/._-])/i;
/** Cloud accounts whose servers hold account credentials. */
const CLOUD_CREDENTIALS = /(?:^|[\s/_-])(aws|gcp|azure|vault|secrets?[_-]?manager|1password|bitwarden)(?:$|[\s/._-])/i;
/** Verbs of operations that destroy or irreversibly change something other than files (apps, records, tables,
 * accounts, instances, passwords): `delete_app`, `dropTable`, `purge-cache`, `terminate_instance`, `rds_ResetPwd`. */
const DESTRUCTIVE_VERB = /^(?:delete|drop|destroy|purge|wipe|truncate|terminate|uninstall|remove|revoke|reset|prune)$/i;
/** The words of an identifier: split at `_`, `-`, `.`, spaces and camelCase humps (`rds_ResetPwd` → rds, Reset, Pwd). */
function identifierWords(name: string): string[] {
  return name
    .slice(0, 200)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean);
}
const destructiveName = (name: string): boolean => identifierWords(name).some((w) => DESTRUCTIVE_VERB.test(w));
/** Parameters choosing what a generic tool does (`operation: create | read | update | delete`). */
const ACTION_PARAM = /^(?:operation|action|op|method|command|verb|mode)$/i;
/** The destructive choices an input schema offers: an action parameter whose `enum` holds a destructive verb. */
function destructiveActions(schema: unknown): string[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(schema.properties).slice(0, 50))
    if (ACTION_PARAM.test(k) && isObj(v) && Array.isArray(v.enum))
      for (const x of v.enum.slice(0, 50)) if (typeof x === 'string' && destructiveName(x)) out.push(`${k}=${x}`);
  return out;
}
/** Cloud document stores: file tools there change account documents (versioned, recoverable), not the host's disk. */
const CLOUD_STORE =
  /\b(?:google drive|gdrive|dropbox|onedrive|sharepoint|box\.com|amazon s3|s3 buckets?|icloud drive)\b/i;
/** Mail stores: a "folder" there is a mailbox (create_folder, delete_folder), not a directory on the host. */
const MAIL_STORE = /\b(?:e-?mail folders?|mailbox(?:es)?|imap|inbox)\b/i;
/** The MCP SDKs: a package that depends on one is an MCP server, and its description says what it gives an agent. */
const MCP_SDKS = new Set(['npm:@modelcontextprotocol/sdk', 'npm:fastmcp', 'pypi:mcp', 'pypi:fastmcp']);
/** A description saying that a language model or agent runs code or commands ("Let language models run code"): a
 * subject in the 60 characters before the action, in one sentence (two small patterns, no gap to rescan). */
const AGENT_SUBJECT =
  /\b(?:language models?|models?|llms?|ai|agents?|assistants?|chatgpt|gpt-?[\w.]{0,8}|claude|gemini)\b/i;
const AGENT_ACTION =
  /\b(?:run|runs|execute|executes) (?:arbitrary |shell |system |python |local |your )?(?:code|commands?|scripts?)\b/i;
function agentRunsCode(description: string): boolean {
  for (const sentence of description.slice(0, 4000).split(/[.\n]/).slice(0, 200)) {
    const action = AGENT_ACTION.exec(sentence);
    if (!action) continue;
    const subject = AGENT_SUBJECT.exec(sentence.slice(Math.max(0, action.index - 60), action.index));
    if (subject) return true;
  }
  return false;
}
/** A server that hands tasks to a coding agent (Claude Code, Codex, Kimi Code run headless): that agent edits files and
 * runs commands on the machine, so the server gives shell execution. */
const CODING_AGENT_DESC = /\bcoding agents?\b/i;
/** A server that says it drives a browser or the desktop: every site and application the user can reach. */
const AUTOMATION_DESC =
  /\b(?:browser automation|automates? (?:the |a |your )?(?:web )?browser|(?:desktop|gui|ui) automation|computer[- ]use|interact with any (?:application|app|website|web ?site)|control (?:any|your|the) (?:application|app|desktop|computer|browser))\b/i;
/** A server that says it changes database contents: DML, write queries, migrations. */
const DB_WRITE_DESC =
  /\b(?:dml|insert\/update\/delete|(?:execute|run)s? (?:arbitrary |raw |write )?sql|write quer(?:y|ies)|migration runner|(?:runs?|applies|apply) (?:schema )?migrations)\b/i;
/** The `keywords` of a package.json (first 50 strings). */
function packageKeywords(raw: unknown): string[] {
  return isObj(raw) && Array.isArray(raw.keywords)
    ? raw.keywords.slice(0, 50).filter((k): k is string => typeof k === 'string')
    : [];
}
/** A tool's own word that its effect cannot be reversed. */
const IRREVERSIBLE = /\b(?:permanently|irreversibl[ey]|cannot be undone|can't be undone|can not be undone)\b/i;
/** A removal scoped to the server's own working set: what the agent loaded into this session, not stored data
 * ("Remove a musical score from the workspace", "Drop the table from the session's memory"). */
const OWN_WORKSPACE =
  /\bfrom (?:the |this |your |its )?(?:current |open |loaded )?(?:workspace|session|memory|cache|context)\b/i;
/** Tools or servers that install other servers, packages or plugins (supply chain: code chosen at run time). */
const INSTALLER_NAME =
  /(?:^|[_-])(?:install|add|setup)[_-](?:mcp[_-])?(?:servers?|packages?|plugins?|extensions?)(?:$|[_-])/i;
const INSTALLER_DESC =
  /\binstall(?:s|ing)? (?:other |new |any |additional |third-party )?(?:mcp )?(?:servers?|packages?|plugins?|extensions?)\b/i;
/** A filesystem root that is a whole home directory or the disk: `/`, `~`, `$HOME`, `/Users/x`, `/home/x`, `C:\\Users\\x`. */
const BROAD_ROOT =
  /^(?:\/|~|\$\{?HOME\}?|%USERPROFILE%|\/root|\/(?:Users|home)\/[^/\\]+|[A-Za-z]:(?:\\Users\\[^/\\]+)?)$/;
/** `x` without trailing `/` or `\\` (a loop: `/[\\/]+$/` is quadratic on a long run of slashes); `/` stays `/`. */
function withoutTrailingSlashes(x: string): string {
  let end = x.length;
  while (end > 1 && (x[end - 1] === '/' || x[end - 1] === '\\')) end--;
  return x.slice(0, end);
}
/** A launcher that hands its arguments to a shell: a shell binary, WSL, or any command given `-c`. */
const SHELL_BINARY = /^(?:bash|sh|zsh|fish|powershell|pwsh|cmd|wsl)(?:\.exe)?$/i;

/** The last path segment of a command (`/usr/bin/bash` → `bash`, `C:\\x\\npx.cmd` → `npx.cmd`). */
export const commandBase = (c: string): string => c.slice(Math.max(c.lastIndexOf('/'), c.lastIndexOf('\\')) + 1);

/** Input-schema parameter names that say what a tool takes (`command`, `path`, `url`). */
const SHELL_PARAM = /^(?:command|cmd|shell_command|bash_command|script|code)$/i;
const NET_PARAM = /^(?:url|uri|endpoint|webhook_url)$/i;
const PATH_PARAM = /^(?:path|file_path|filepath|filename|file|directory|dir)$/i;

/** The parameter names of a tool's input schema (first 50). */
function paramNames(schema: unknown): string[] {
  return isObj(schema) && isObj(schema.properties) ? Object.keys(schema.properties).slice(0, 50) : [];
}

/** Words that put a command on the host: a shell, the operating system, a terminal or a remote login. */
const HOST_SHELL_TEXT =
  /\b(?:shell|bash|zsh|sh|powershell|pwsh|terminal|cmd(?:\.exe)?|command[- ]line|cli|subprocess|process(?:es)?|system commands?|os commands?|operating system|host|machine|ssh|scripts?|code)\b/i;
/** A command addressed to something other than the host: into a game world, to a device, a bot or an API
 * ("Execute a command in the game world", "Send a command to the robot"). */
const REMOTE_COMMAND_TARGET =
  /\bcommands? (?:in|into|to|on|for) (?:the |a |an |your |this )?(?:[\w-]+ ){0,3}?(?:world|game|device|robot|bot|chat|channel|room|api|service|simulator|emulator)\b/i;

/**
 * Whether a tool runs commands or code on the host. A shell-like name (`execute`) or a `command` parameter is weak
 * evidence on its own: when the tool's own text sends the command somewhere else (a game world, a device, an API) and
 * never mentions a shell, the operating system or code, the command is that target's, not the host's (docs/enrichment.md
 * R17). A description that says shell or code execution is always believed.
 */
function runsHostShell(t: { name: string; description: string; inputSchema: unknown }, desc: string): boolean {
  if (SHELL_DESC.test(desc)) return true;
  if (!SHELL_NAME.test(t.name) && !paramNames(t.inputSchema).some((x) => SHELL_PARAM.test(x))) return false;
  const text = toolText({ ...t, description: desc });
  return !(REMOTE_COMMAND_TARGET.test(text) && !HOST_SHELL_TEXT.test(text));
}

/** What an enabled option switches on (its key's words, title and description): running processes or commands,
 * file operations, network access. */
const OPTION_SHELL =
  /\b(?:process(?:es)? (?:management|operations|control|execution)|shell|commands? execution|(?:run|execute)s? commands?|command execution|code execution|powershell|terminal|scripts? execution)\b/i;
const OPTION_FILES =
  /\b(?:file ?system|files?|director(?:y|ies)|folders?|archives?) (?:operations|access|writes?|management|editing)\b/i;
const OPTION_NETWORK = /\b(?:network|internet|http|web) (?:operations|access|requests?)\b/i;

const MAX_TOOL_TEXT = 20_000;
/** A tool's description and its parameters' descriptions (capped). */
function toolText(t: { name: string; description: string; inputSchema: unknown }): string {
  let s = t.description.length > MAX_TOOL_TEXT ? t.description.slice(0, MAX_TOOL_TEXT) : t.description;
  if (isObj(t.inputSchema) && isObj(t.inputSchema.properties)) {
    const props = t.inputSchema.properties;
    for (const k of Object.keys(props)) {
      const v = props[k];
      if (isObj(v) && typeof v.description === 'string') s += '\n' + v.description;
    }
  }
  return s;
}

export interface ToolSignals {
  poisoned: Array<{ tool: string; indicators: string[] }>;
  /** tools (and `(server description)`) that run shell commands or code */
  shell: string[];
  /** servers launched through a shell */
  shellServers: string[];
  /** tools (and `(server description)`) that install other servers, packages or plugins */
  installers: string[];
  fsWrite: string[];
  fsRead: string[];
  fsServers: string[];
  /** the file tools work on a cloud document store (their descriptions name one), not the local filesystem */
  cloudDocuments: boolean;
  /** the "folder" tools work on mailboxes (their descriptions speak of mail folders), not the local filesystem */
  mailFolders: boolean;
  /** filesystem roots that are a whole home directory or `/`, when a filesystem server is configured */
  broadRoots: string[];
  /** tools that destroy something other than files (not annotated read-only or non-destructive) */
  destructive: string[];
  /** of those, the ones whose own description says the effect cannot be reversed */
  irreversible: string[];
  net: string[];
  netServers: string[];
  pay: string[];
  messaging: string[];
  unannotated: string[];
  offensive: string[];
  /** reconnaissance against targets (bug-bounty recon, attack-surface mapping) named by the servers or tools */
  recon: string[];
  infra: string[];
  cloud: string[];
}

const cache = new WeakMap<RuleContext, ToolSignals>();

/** The capability signals of one evaluation (computed once, shared by R16–R20 and R26). */
export function toolSignals(ctx: RuleContext): ToolSignals {
  const hit = cache.get(ctx);
  if (hit) return hit;
  const s = readToolSignals(ctx);
  cache.set(ctx, s);
  return s;
}

function readToolSignals(ctx: RuleContext): ToolSignals {
  const { p } = ctx;
  const poisoned: Array<{ tool: string; indicators: string[] }> = [];
  const shell: string[] = [];
  const fsWrite: string[] = [];
  const fsRead: string[] = [];
  const net: string[] = [];
  const pay: string[] = [];
  const unannotated: string[] = [];
  const destructive: string[] = [];
  const irreversible: string[] = [];
  for (const t of p.tools.slice(0, 500)) {
    const text = toolText(t);
    const ind = POISON.filter(([, re]) => re.test(text)).map(([k]) => k);
    if (ind.length && !namesItsOwnFile(t.name, text, ind)) poisoned.push({ tool: t.name, indicators: ind });
    const ann = t.annotations ?? {};
    const params = paramNames(t.inputSchema);
    if (runsHostShell(t, t.description)) shell.push(t.name);
    if (FS_WRITE_NAME.test(t.name) || (FS_WRITE_DESC.test(t.description) && ann.readOnlyHint !== true))
      fsWrite.push(t.name);
    else if (FS_READ_NAME.test(t.name) || params.some((x) => PATH_PARAM.test(x))) fsRead.push(t.name);
    else if (
      (destructiveName(t.name) || destructiveActions(t.inputSchema).length > 0) &&
      ann.readOnlyHint !== true &&
      ann.destructiveHint !== false &&
      // a removal from the server's own workspace or session unloads what was loaded; it deletes nothing stored
      // (unless the tool says the removal is permanent)
      !(OWN_WORKSPACE.test(t.description) && !IRREVERSIBLE.test(t.description))
    ) {
      destructive.push(t.name);
      if (IRREVERSIBLE.test(t.description)) irreversible.push(t.name);
    }
    if (NET_NAME.test(t.name) || NET_DESC.test(t.description) || params.some((x) => NET_PARAM.test(x)))
      net.push(t.name);
    if (PAY.test(t.name) || PAY.test(t.description)) pay.push(t.name);
    if (!t.annotations) unannotated.push(t.name);
  }
  // server-level hints (package/server names)
  const serverNames = uniq(
    [
      p.name ?? '',
      ctx.input.name ?? '',
      ...p.servers.map((s) => s.identifier ?? s.name),
      ...p.servers.flatMap((s) => s.args.filter((a) => !a.startsWith('-'))),
    ].filter(Boolean),
  );
  // well-known servers from src/data/mcp-servers.json
  // features a bundle switches on by default (MCPB user_config) are declared capabilities, read like a server's
  // description of itself: 0.6, as for a server named for a capability
  const options = p.servers.flatMap((s) => s.enabledOptions ?? []);
  const optionsFor = (re: RegExp): string[] => options.filter((o) => re.test(o.text)).map((o) => `(option ${o.key})`);
  const fsServers = [
    ...serverNames.filter((n) => isKnownServerWith(n, ['filesystem_write'])),
    ...optionsFor(OPTION_FILES),
  ];
  const netServers = [
    ...serverNames.filter((n) => isKnownServerWith(n, ['network_egress', 'browser'])),
    ...optionsFor(OPTION_NETWORK),
  ];
  const shellServers = p.servers
    .filter(
      (s) =>
        (s.command && SHELL_BINARY.test(commandBase(s.command))) ||
        s.args.some((a, i) => SHELL_BINARY.test(commandBase(a)) && s.args[i + 1] === '-c'),
    )
    .map((s) => s.name)
    .concat(optionsFor(OPTION_SHELL));
  // what the server says it does (its own description) and what its names say; only for MCP
  // servers and tool lists (a library named for docker or a requirements file named for kali grants no agent anything)
  // a package that publishes itself as an MCP server (`mcpName`) describes what it gives an agent, too
  const mcp = p.servers.length > 0 || p.tools.length > 0 || inFamily(p.kind, 'mcp') || !!p.mcp_name;
  // a package's own description says what it gives an agent when it is an MCP server: the submitter's asset type
  // says so, or it depends on an MCP SDK (its name alone still counts only in an MCP context, as above)
  const mcpPackage =
    ctx.input.asset_type === 'mcp_server' ||
    p.dependencies.some((d) => MCP_SDKS.has(`${d.ecosystem}:${d.name.toLowerCase()}`));
  const desc = mcp || mcpPackage ? (p.description ?? '') : '';
  const names = mcp ? serverNames : [];
  if (SHELL_DESC.test(desc) || CODING_AGENT_DESC.test(desc)) shell.push('(server description)');
  // any package that says it lets a model or agent run code or commands gives an agent execution (open-interpreter)
  else if (agentRunsCode(p.description ?? '')) shell.push('(package description)');
  const installers = p.tools
    .slice(0, 500)
    .filter((t) => INSTALLER_NAME.test(t.name) || INSTALLER_DESC.test(t.description))
    .map((t) => t.name);
  if (INSTALLER_DESC.test(desc)) installers.push('(server description)');
  if (PAY.test(desc)) pay.push('(server description)');
  // an MCP package's npm keywords list the services it acts on (stripe, payments, twilio); only payment and
  // messaging services count from them — a keyword like `terminal` says where it runs, not what it executes
  const keywords = mcp || mcpPackage ? packageKeywords(p.raw_json) : [];
  const payKeywords = keywords.filter((k) => PAY.test(k));
  if (payKeywords.length && !pay.includes('(server description)'))
    pay.push(`(keywords: ${payKeywords.slice(0, 3).join(', ')})`);
  if (AUTOMATION_DESC.test(desc)) net.push('(server description)');
  if (DB_WRITE_DESC.test(desc)) destructive.push('(server description)');
  const firstGroup = (re: RegExp, xs: readonly string[]): string[] =>
    uniq(xs.map((n) => re.exec(n)?.[1]?.toLowerCase()).filter((x): x is string => !!x));
  // a filesystem server rooted at a home directory or the root reaches ~/.ssh and cloud credentials
  // (only the arguments of a server the data file says takes its roots as arguments: a git server's `--repository ~`
  // is one repository, not the home directory)
  const takesRoots = (sv: (typeof p.servers)[number]): boolean =>
    [sv.identifier ?? sv.name, ...sv.args].some((n) => knownServers(n).some((k) => k.roots_in_args));
  const broadRoots = uniq(
    p.servers.filter(takesRoots).flatMap((sv) => sv.args.filter((x) => BROAD_ROOT.test(withoutTrailingSlashes(x)))),
  );
  return {
    poisoned,
    shell,
    shellServers,
    installers,
    fsWrite,
    fsRead,
    fsServers,
    destructive,
    irreversible,
    cloudDocuments: p.tools.slice(0, 500).some((t) => CLOUD_STORE.test(t.description)),
    mailFolders: p.tools.slice(0, 500).some((t) => MAIL_STORE.test(t.description)),
    broadRoots,
    net,
    netServers,
    pay,
    messaging: firstGroup(MESSAGING, [...names, desc, ...keywords]),
    unannotated,
    offensive: uniq(
      [...names, desc, ...p.tools.slice(0, 500).map((t) => t.name)]
        .map((t) => OFFENSIVE_TOOLS.exec(t)?.[0]?.toLowerCase())
        .filter((x): x is string => !!x),
    ),
    recon: uniq(
      [...names, desc, ...p.tools.slice(0, 500).map((t) => t.name)]
        .map((t) => RECON_TOOLS.exec(t)?.[0]?.toLowerCase())
        .filter((x): x is string => !!x),
    ),
    infra: firstGroup(INFRA_EXEC, names),
    cloud: firstGroup(CLOUD_CREDENTIALS, names),
  };
}

/** What one tool can reach, as tool drift compares it between observations (docs/drift.md, R33). */
export type ToolCapability = 'credentials' | 'file' | 'network' | 'shell';

/** Credential nouns in identifier words, two-word ones joined (`api key`, `access token`). */
const CREDENTIAL_NOUN =
  /^(?:secrets?|credentials?|passwords?|passwd|keychain|keyring|env|environment|(?:api|ssh|private|secret) keys?|access tokens?)$/;
const CREDENTIAL_VERB =
  /^(?:get|read|list|fetch|dump|export|show|print|reveal|retrieve|set|update|rotate|create|store|save|delete|copy|access)$/;
/**
 * Tool names that hand out secrets: `get_secret`, `read-credentials`, `list_api_keys`, `dump_env`, `getSecretValue`.
 * The credential is the tool's object — the last word, or right after a verb — not a qualifier (`secret_function`).
 */
function credentialName(name: string): boolean {
  const w = identifierWords(name).map((x) => x.toLowerCase());
  for (let i = 0; i < w.length; i++) {
    const two = i + 1 < w.length && CREDENTIAL_NOUN.test(`${w[i]} ${w[i + 1]}`);
    if (!two && !CREDENTIAL_NOUN.test(w[i]!)) continue;
    const last = i + (two ? 1 : 0) === w.length - 1;
    if (last || (i > 0 && CREDENTIAL_VERB.test(w[i - 1]!))) return true;
  }
  return false;
}
/** Input parameters that carry a secret through the agent (`password`, `db_user_pwd`, `private_key`); pagination or
 * session tokens are not among them. */
const CREDENTIAL_PARAM_WORD = /^(?:password|passwd|pwd|passphrase)$/i;
const CREDENTIAL_PARAM = /^(?:private|secret|api)[_-]?key$|^client[_-]?secret$/i;
const takesSecret = (param: string): boolean =>
  CREDENTIAL_PARAM.test(param) || identifierWords(param).some((x) => CREDENTIAL_PARAM_WORD.test(x));
/** Descriptions that say the tool reads or returns secrets. */
const CREDENTIAL_DESC =
  /\b(?:reads?|gets?|returns?|lists?|fetch(?:es)?|retrieves?|exports?|dumps?|accesses|access) (?:(?:the|all|any|your|stored|saved) ){0,2}(?:secrets?|credentials?|passwords?|api keys?|access tokens?|ssh keys?|private keys?|environment variables|keychain)\b/i;

/**
 * The capabilities of one tool, with the same name, description and input-schema signals as the capability rules
 * (R17 shell, R18 file, R19 network) plus credential access; tool drift (R33) reports the ones a later observation
 * adds.
 */
export function toolCapabilities(
  t: Pick<ToolDef, 'name' | 'description' | 'inputSchema' | 'annotations'>,
): ToolCapability[] {
  const params = paramNames(t.inputSchema);
  const desc = t.description.length > MAX_TOOL_TEXT ? t.description.slice(0, MAX_TOOL_TEXT) : t.description;
  const out: ToolCapability[] = [];
  if (
    credentialName(t.name) ||
    params.some(takesSecret) ||
    CREDENTIAL_DESC.test(desc) ||
    SENSITIVE_PATH_RE.test(toolText({ ...t, description: desc }))
  )
    out.push('credentials');
  if (
    FS_WRITE_NAME.test(t.name) ||
    (FS_WRITE_DESC.test(desc) && t.annotations?.readOnlyHint !== true) ||
    FS_READ_NAME.test(t.name) ||
    params.some((x) => PATH_PARAM.test(x))
  )
    out.push('file');
  if (NET_NAME.test(t.name) || NET_DESC.test(desc) || params.some((x) => NET_PARAM.test(x))) out.push('network');
  if (runsHostShell(t, desc)) out.push('shell');
  return out;
}
