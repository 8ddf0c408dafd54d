// Judgement of the names a pickle load imports and calls, from data/pickle-callables.json (its header names the
// sources). Dangerous entries match by dotted prefix, safe entries exactly, and anything else is unknown: suspicious,
// never silently safe (docs/artifacts.md "Pickle callables").
import table from '../../data/pickle-callables.json';

export type CallableJudgement = 'dangerous' | 'code_builder' | 'safe' | 'unknown';

interface DangerousEntry {
  prefix: string;
  why: string;
  source: string;
}

const moduleAliases = new Map<string, string>(
  Object.entries(table.moduleAliases).filter(([key]) => key !== '_source') as [string, string][],
);
const nameAliases = new Map<string, string>(
  Object.entries(table.nameAliases).filter(([key]) => key !== '_source') as [string, string][],
);
const dangerous = new Map<string, DangerousEntry>(
  (table.dangerous as DangerousEntry[]).map((entry) => [entry.prefix, entry]),
);
const safe = new Set<string>(table.safe.map((entry) => entry.exact));
const codeBuilders = new Set<string>(table.codeBuilders.names);
const typeResolvers = new Set<string>(table.codeBuilders.typeResolvers);

/**
 * The qualified name the unpickler resolves, with Python 2 and platform aliases applied: `posix system` and
 * `nt system` are `os.system`, `__builtin__ eval` is `builtins.eval`, `_operator attrgetter` is `operator.attrgetter`.
 * Module aliases apply to the longest aliased dotted prefix of the module.
 */
export function qualifiedName(module: string, name: string): string {
  let canonicalModule = module;
  const parts = module.split('.');
  for (let i = parts.length; i > 0; i--) {
    const alias = moduleAliases.get(parts.slice(0, i).join('.'));
    if (alias !== undefined) {
      canonicalModule = [alias, ...parts.slice(i)].join('.');
      break;
    }
  }
  const full = `${canonicalModule}.${name}`;
  return nameAliases.get(full) ?? full;
}

/** The dangerous entry whose prefix covers `qualname` on dotted boundaries, if any. */
export function dangerousEntry(qualname: string): DangerousEntry | undefined {
  let end = qualname.length;
  for (;;) {
    const entry = dangerous.get(qualname.slice(0, end));
    if (entry !== undefined) return entry;
    end = qualname.lastIndexOf('.', end - 1);
    if (end <= 0) return undefined;
  }
}

export function judgeCallable(qualname: string): CallableJudgement {
  if (dangerousEntry(qualname) !== undefined) return 'dangerous';
  if (codeBuilders.has(qualname)) return 'code_builder';
  if (safe.has(qualname)) return 'safe';
  return 'unknown';
}

/** cloudpickle `_builtin_type('CodeType')` and dill `_load_type('CodeType')` return `types.<name>`. */
export function isTypeResolver(qualname: string): boolean {
  return typeResolvers.has(qualname);
}
