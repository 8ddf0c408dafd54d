// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the untyped packages' declarations must load wherever this file is compiled (services type-check the engine from source)
/// <reference path="./modules.d.ts" />
import spdxIds from 'spdx-license-ids';
import deprecatedIds from 'spdx-license-ids/deprecated';
import spdxParse from 'spdx-expression-parse';
import modelLicences from './data/model-licences.json';
import { hasLineTerminator, trimChar } from './util';

const CANON = new Map<string, string>();
for (const id of [...deprecatedIds, ...spdxIds]) CANON.set(id.toLowerCase(), id);
for (const [k, v] of Object.entries({
  'apache 2.0': 'Apache-2.0',
  apache2: 'Apache-2.0',
  'apache-2': 'Apache-2.0',
  'gpl-3': 'GPL-3.0-only',
  'gpl-3.0': 'GPL-3.0-only',
  'gpl-2.0': 'GPL-2.0-only',
  'agpl-3.0': 'AGPL-3.0-only',
  'lgpl-3.0': 'LGPL-3.0-only',
  'lgpl-2.1': 'LGPL-2.1-only',
  bsd: 'BSD-3-Clause',
}))
  CANON.set(k, v);

/** Hugging Face licence ids that are not SPDX ids (hub docs repositories-licenses). */
export const HF_CUSTOM_LICENSES = new Set([
  'openrail',
  'openrail++',
  'creativeml-openrail-m',
  'bigscience-openrail-m',
  'bigscience-bloom-rail-1.0',
  'bigcode-openrail-m',
  'llama2',
  'llama3',
  'llama3.1',
  'llama3.2',
  'llama3.3',
  'llama4',
  'gemma',
  'deepfloyd-if-license',
  'apple-amlr',
  'apple-ascl',
  'intel-research',
  'lgpl-lr',
  'cc-by-nc-sa-4.0',
  'fair-noncommercial-research-license',
  'h-research',
  'other',
  'unknown',
  'etalab-2.0',
  'c-uda',
  'geogebra',
  'unity',
]);

const RESTRICTIVE_ID =
  /^(?:llama[-\s]?[234](?:\.\d)?|llama|gemma|bigscience-bloom-rail-1\.0|deepfloyd-if-license|apple-amlr|intel-research|other|h-research|tongyi-qianwen|qwen|deepseek|yi-license)$/i;
/**
 * Licence ids that carry use restrictions: the listed ids, or any one-line id containing `rail` (OpenRAIL family).
 * Was one pattern with `^(...|.*openrail.*|.*rail.*)$`, quadratic on a long id with a line break near its end.
 */
export function isRestrictiveLicense(id: string): boolean {
  return RESTRICTIVE_ID.test(id) || (!hasLineTerminator(id) && /rail/i.test(id));
}
export const NON_COMMERCIAL = /(^|[-\s])nc([-\s]|$)|non-?commercial|noncommercial|research[- ]only|fair-noncommercial/i;

export interface LicenseInfo {
  raw: string;
  spdx: string | null; // canonical SPDX expression when valid
  license_ref: string | null; // LicenseRef-<slug> for non-SPDX licences
  valid: boolean;
  hf_custom: boolean;
}

export function licenseRefSlug(raw: string): string {
  const s = trimChar(raw.replace(/[^A-Za-z0-9.-]+/g, '-'), '-').slice(0, 60);
  return `LicenseRef-${s || 'unknown'}`;
}

function tryParse(expr: string): boolean {
  try {
    spdxParse(expr);
    return true;
  } catch {
    return false;
  }
}

const cache = new Map<string, LicenseInfo>();

export function normalizeLicense(raw: string): LicenseInfo {
  const hit = cache.get(raw);
  if (hit) return hit;
  const info = computeLicense(raw);
  if (cache.size < 5000) cache.set(raw, info);
  return info;
}

function computeLicense(raw: string): LicenseInfo {
  const r = raw.trim();
  const lower = r.toLowerCase();
  const single = CANON.get(lower);
  if (single) return { raw: r, spdx: single, license_ref: null, valid: true, hf_custom: false };
  if (HF_CUSTOM_LICENSES.has(lower))
    return { raw: r, spdx: null, license_ref: licenseRefSlug(lower), valid: false, hf_custom: true };
  // expression: canonicalise each token
  if (/\s(and|or|with)\s|\(/i.test(r)) {
    const canon = r
      .replace(/\s+/g, ' ')
      .split(/(\(|\)|\s)/)
      .map((t) => (/^(and|or|with)$/i.test(t) ? t.toUpperCase() : (CANON.get(t.toLowerCase()) ?? t)))
      .join('');
    if (tryParse(canon)) return { raw: r, spdx: canon, license_ref: null, valid: true, hf_custom: false };
  }
  if (/^LicenseRef-[A-Za-z0-9.-]+$/.test(r))
    return { raw: r, spdx: r, license_ref: null, valid: true, hf_custom: false };
  return { raw: r, spdx: null, license_ref: licenseRefSlug(r), valid: false, hf_custom: false };
}

/** Trove licence classifiers (https://pypi.org/classifiers/) with an SPDX equivalent. */
const TROVE: Record<string, string> = {
  'MIT License': 'MIT',
  'MIT No Attribution License (MIT-0)': 'MIT-0',
  'Apache Software License': 'Apache-2.0',
  'BSD License': 'BSD-3-Clause',
  'ISC License (ISCL)': 'ISC',
  'Mozilla Public License 2.0 (MPL 2.0)': 'MPL-2.0',
  'GNU General Public License v2 (GPLv2)': 'GPL-2.0-only',
  'GNU General Public License v3 (GPLv3)': 'GPL-3.0-only',
  'GNU Lesser General Public License v3 (LGPLv3)': 'LGPL-3.0-only',
  'GNU Lesser General Public License v2 or later (LGPLv2+)': 'LGPL-2.1-or-later',
  'GNU Affero General Public License v3': 'AGPL-3.0-only',
  'The Unlicense (Unlicense)': 'Unlicense',
  'Python Software Foundation License': 'PSF-2.0',
};

/** The SPDX id of the first `License :: …` trove classifier that has one (the last segment names the licence). */
export function classifierLicense(classifiers: readonly string[]): string | null {
  for (const c of classifiers) {
    const t = c.trim();
    if (!t.startsWith('License ::')) continue;
    const last = t.slice(t.lastIndexOf('::') + 2).trim();
    const id = TROVE[last];
    if (id) return id;
  }
  return null;
}

export interface ModelLicence {
  id: string;
  aliases: string[];
  name: string;
  /** yes / no / conditional (a user threshold, registration or separate hosting licence) */
  commercial: 'yes' | 'no' | 'conditional';
  commercial_note?: string;
  attribution: boolean;
  field_of_use: boolean;
  field_of_use_note?: string;
  no_derivatives?: boolean;
}
const MODEL_LICENCES = new Map<string, ModelLicence>();
for (const l of (modelLicences as { licences: ModelLicence[] }).licences)
  for (const k of [l.id, ...l.aliases]) MODEL_LICENCES.set(k.toLowerCase(), l);

/** Multi-word licence names and aliases ("creativeml openrail-m", "llama 2 community license"): safe to find in prose. */
const MODEL_LICENCE_PHRASES = [...MODEL_LICENCES.entries()].filter(([k]) => k.length >= 12 && k.includes(' '));

/**
 * The custom model licence a card's text names, by its full name or a multi-word alias (the earliest mention wins);
 * for cards whose front matter says `license: other` and leaves the licence to the text. Plain substring search:
 * linear, no pattern over tenant text.
 */
export function modelLicenceNamedIn(text: string | null | undefined): ModelLicence | null {
  if (!text) return null;
  const lower = text.slice(0, 50_000).toLowerCase();
  let best: { at: number; l: ModelLicence } | null = null;
  for (const [k, l] of MODEL_LICENCE_PHRASES) {
    const at = lower.indexOf(k);
    if (at >= 0 && (!best || at < best.at)) best = { at, l };
  }
  return best?.l ?? null;
}

/** Sentences that identify a standard licence's text (their official wording), most specific first. */
const LICENCE_TEXT_MARKERS: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ['AGPL-3.0-only', ['gnu affero general public license', 'version 3']],
  ['LGPL-3.0-only', ['gnu lesser general public license', 'version 3']],
  ['LGPL-2.1-only', ['gnu lesser general public license', 'version 2.1']],
  ['GPL-3.0-only', ['gnu general public license', 'version 3']],
  ['GPL-2.0-only', ['gnu general public license', 'version 2']],
  ['Apache-2.0', ['apache license', 'version 2.0']],
  ['MPL-2.0', ['mozilla public license version 2.0']],
  ['MIT', ['permission is hereby granted, free of charge, to any person obtaining a copy']],
  ['BSD-3-Clause', ['redistribution and use in source and binary forms', 'neither the name']],
  ['BSD-2-Clause', ['redistribution and use in source and binary forms']],
  ['Unlicense', ['this is free and unencumbered software released into the public domain']],
  ['CC-BY-NC-4.0', ['attribution-noncommercial 4.0 international']],
];

/**
 * The licence a licence file's text is ("identify the licence from its text"): a standard licence
 * by its official wording (SPDX id), or a custom model licence by its name in the text (its data-file id); null when
 * the text is a licence nobody has named. Plain substring search over the first 20 000 characters.
 */
export function identifyLicenceText(text: string): string | null {
  const lower = text.slice(0, 20_000).toLowerCase().replace(/\s+/g, ' ');
  const model = modelLicenceNamedIn(lower.slice(0, 2_000));
  if (model) return model.id;
  for (const [id, markers] of LICENCE_TEXT_MARKERS) if (markers.every((m) => lower.includes(m))) return id;
  return null;
}

/** The custom model licence (src/data/model-licences.json) an id or licence name denotes, if any. */
export function modelLicence(idOrName: string | null | undefined): ModelLicence | null {
  if (!idOrName) return null;
  return MODEL_LICENCES.get(idOrName.trim().toLowerCase()) ?? null;
}
