// What is left when no manifest format claims the content: generic JSON, YAML, TOML and text. Nothing in them is
// analysed as a manifest, which `format_not_analysed` reports (docs/enrichment.md "Manifests recognised").
import { isObj } from '../util';
import { hasHeadings } from '../parse/card';
import { genericNameVersion } from '../parse/common';
import { parseText } from '../parse/text';
import { defineFormat } from './define';
import { fromData } from './shapes';

/** Generic formats never beat a manifest format: each one's confidence is below every recogniser's. */
const GENERIC = 0.1;

export const JSON_DATA = defineFormat({
  id: 'json',
  title: 'JSON (generic)',
  family: 'generic',
  syntax: ['json', 'jsonc'],
  summary: 'name, version, licence and files when present',
  names: null,
  recognise: (doc) => (doc.json() ? GENERIC : 0),
  parse: fromData<unknown>((p, j) => {
    if (isObj(j)) genericNameVersion(p, j);
  }),
  carries: [],
});

export const YAML_DATA = defineFormat({
  id: 'yaml',
  title: 'YAML (generic)',
  family: 'generic',
  syntax: ['yaml'],
  summary: 'name, version, licence and files when present',
  names: null,
  recognise: (doc) => (doc.data()?.syntax === 'yaml' ? GENERIC : 0),
  parse: fromData<unknown>((p, y) => {
    if (isObj(y)) genericNameVersion(p, y);
  }),
  carries: [],
});

export const TOML_DATA = defineFormat({
  id: 'toml',
  title: 'TOML (generic)',
  family: 'generic',
  syntax: ['toml'],
  summary: 'name, version and licence of a Cargo-style `[package]` table or the top level',
  names: null,
  recognise: (doc) => (doc.toml() ? GENERIC : 0),
  parse(p, doc) {
    const t = doc.toml();
    if (!t) return;
    p.format = 'toml';
    p.raw_json = t;
    genericNameVersion(p, isObj(t.package) ? { ...t, ...t.package } : t);
  },
  carries: [],
});

export const TEXT = defineFormat({
  id: 'text',
  title: 'Text (generic)',
  family: 'generic',
  syntax: ['lines', 'markdown'],
  summary: 'a licence file identified by its wording, or a licence the prose states; anything else is kept as the body',
  names: null,
  recognise: () => GENERIC / 10,
  parse(p, doc) {
    if (doc.structured) {
      // JSON that does not parse: kept as it is (its syntax error is reported)
      p.body = doc.raw;
      return;
    }
    p.format = hasHeadings(doc.raw) ? 'markdown' : 'text';
    parseText(p, doc.raw);
  },
  carries: [],
});
