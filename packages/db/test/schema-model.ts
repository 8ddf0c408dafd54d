import fs from 'node:fs';
import path from 'node:path';

/**
 * A small reader for our schema.prisma: enough to know, per table, each column's type,
 * nullability and list-ness, the primary key, unique constraints, other indexes and foreign keys. Used by the drift
 * test to compare the schema with a migrated database (the Prisma CLI's diff needs a native engine
 * this machine can't download).
 */
export interface ColumnSpec {
  name: string;
  udt: string; // Postgres udt_name as information_schema reports it
  nullable: boolean;
}
export interface TableSpec {
  table: string;
  columns: Map<string, ColumnSpec>;
  primaryKey: string[];
  uniques: string[][];
  /** non-unique indexes: columns as `name` or `name DESC`, and the access method (btree, gin) */
  indexes: Array<{ columns: string[]; method: string }>;
  foreignKeys: Array<{ columns: string[]; refTable: string; refColumns: string[]; onDelete: string }>;
}

const SCALAR_UDT: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Boolean: 'bool',
  Float: 'float8',
  Json: 'jsonb',
  DateTime: 'timestamp',
  Decimal: 'numeric',
  Bytes: 'bytea',
};

export function readSchema(file = path.join(__dirname, '..', 'prisma', 'schema.prisma')): Map<string, TableSpec> {
  const src = fs.readFileSync(file, 'utf8');
  const models = new Map<string, { body: string[] }>();
  const re = /^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm;
  for (let m = re.exec(src); m; m = re.exec(src)) models.set(m[1]!, { body: m[2]!.split('\n') });
  const tableOf = new Map<string, string>();
  for (const [name, { body }] of models) {
    const map = body.map((l) => /@@map\("([^"]+)"\)/.exec(l)).find(Boolean);
    tableOf.set(name, map ? map[1]! : name);
  }
  const out = new Map<string, TableSpec>();
  for (const [name, { body }] of models) {
    const spec: TableSpec = {
      table: tableOf.get(name)!,
      columns: new Map(),
      primaryKey: [],
      uniques: [],
      indexes: [],
      foreignKeys: [],
    };
    for (const raw of body) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (!line) continue;
      if (line.startsWith('@@')) {
        const id = /^@@id\(\[([^\]]+)\]/.exec(line);
        if (id) spec.primaryKey = id[1]!.split(',').map((s) => s.trim());
        const uq = /^@@unique\(\[([^\]]+)\]/.exec(line);
        if (uq) spec.uniques.push(uq[1]!.split(',').map((s) => s.trim()));
        const ix = /^@@index\(\[(.+?)\](.*)\)$/.exec(line);
        if (ix) {
          // `created(sort: Desc)` → `created DESC`; `name(ops: raw("gin_trgm_ops"))` → `name`
          const columns = ix[1]!.split(/,(?![^(]*\))/).map((c) => {
            const col = /^\s*(\w+)(\(.*\))?\s*$/.exec(c)!;
            return /sort:\s*Desc/.test(col[2] ?? '') ? `${col[1]} DESC` : col[1]!;
          });
          const method = (/type:\s*(\w+)/.exec(ix[2]!)?.[1] ?? 'BTree').toLowerCase();
          spec.indexes.push({ columns, method });
        }
        continue;
      }
      const f = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!f) continue;
      const [, field, type, list, optional, attrs] = f as unknown as [
        string,
        string,
        string,
        string | undefined,
        string | undefined,
        string,
      ];
      if (models.has(type)) {
        const rel = /@relation\([^)]*fields:\s*\[([^\]]+)\][^)]*references:\s*\[([^\]]+)\][^)]*\)/.exec(attrs);
        if (rel) {
          const onDelete = /onDelete:\s*(\w+)/.exec(attrs)?.[1] ?? 'Restrict';
          spec.foreignKeys.push({
            columns: rel[1]!.split(',').map((s) => s.trim()),
            refTable: tableOf.get(type)!,
            refColumns: rel[2]!.split(',').map((s) => s.trim()),
            onDelete,
          });
        }
        continue;
      }
      const base = SCALAR_UDT[type];
      if (!base) throw new Error(`unknown scalar ${type} on ${name}.${field}`);
      let udt = base;
      if (type === 'DateTime' && /@db\.Timestamptz/.test(attrs)) udt = 'timestamptz';
      const column = /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? field;
      spec.columns.set(column, {
        name: column,
        udt: list ? `_${udt}` : udt,
        nullable: Boolean(optional) || Boolean(list),
      });
      if (/(^|\s)@id(\s|$|\()/.test(attrs)) spec.primaryKey = [column];
      if (/(^|\s)@unique(\s|$|\()/.test(attrs)) spec.uniques.push([column]);
    }
    out.set(spec.table, spec);
  }
  return out;
}
