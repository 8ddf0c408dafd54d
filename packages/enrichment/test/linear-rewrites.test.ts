// Each linear-time rewrite (docs/security.md "Linear-time parsing and caps") agrees with the backtracking pattern it
// replaced, on random short strings over the characters that matter to that pattern (short: the old patterns are
// only slow on long input).
import fc from 'fast-check';
import { isRestrictiveLicense, licenseRefSlug } from '../src/license';
import { modelfileDirective, PROSE_LICENSE, removeVersionOperators, REQ_LINE, TOML_HINT } from '../src/parse';
import { githubOwner, hasHtmlComment, isPlaceholderName } from '../src/rules/signals/text';
import { cutFromMarker, trimChar } from '../src/util';
import { isPinned, splitVersionOperator } from '../src/versions';

const OLD = {
  TOML_HINT: /^\s*\[(?:project|tool\.[\w-]+|build-system|package|dependencies)\]/m,
  MODELFILE_LINE: /^\s*(FROM|PARAMETER|SYSTEM|TEMPLATE|ADAPTER|LICENSE|MESSAGE|REQUIRES)\b\s*(.*)$/i,
  REQ_LINE:
    /^([A-Za-z0-9][A-Za-z0-9._-]*)[ \t]*(\[[^\]]*\])?[ \t]*((?:(?:===|==|>=|<=|~=|!=|<|>)[ \t]*[^\s,;#=<>~!]+[ \t]*(?:,[ \t]*)?)*)(?:;[^#]*)?(?:#.*)?$/,
  PROSE_LICENSE:
    /\b(?:licen[sc]ed?\s+(?:under\s+)?(?:the\s+)?|licen[sc]e\s*[:\]]?\s*\n*\s*\[?|#\s*licen[sc]e\s*\n+\s*\[?)(MIT|Apache(?:[- ]License)?[ ,-]*(?:Version\s*)?2\.0|Apache-2\.0|GPL-?[23]\.0|AGPL-?3\.0|LGPL-?[23]\.[01]|BSD-[23]-Clause|CC[- ]BY(?:[- ](?:NC|SA|ND))*[- ][1-4]\.0|OpenRAIL(?:-M)?|Llama ?[234](?:\.\d)?(?: Community)? License)/i,
  RESTRICTIVE:
    /^(llama[-\s]?[234](?:\.\d)?|llama|gemma|.*openrail.*|bigscience-bloom-rail-1\.0|deepfloyd-if-license|apple-amlr|intel-research|other|h-research|tongyi-qianwen|qwen|deepseek|yi-license|.*rail.*)$/i,
  PLACEHOLDER_NAME: /<[^>]*>|\byour[-_ ]|\bexample\b|\bchangeme\b|\bplaceholder\b|\btodo\b/i,
  HTML_COMMENT: /<!--[\s\S]*?-->/,
  GITHUB_OWNER: /github\.com[/:]([^/]+)\//i,
  SPEC: /^(===|==|>=|<=|~=|!=|<|>)?\s*(.+)$/,
  PINNED: /^===?\s*[^,*]+$/,
};

/** Strings of up to `max` pieces drawn from `pieces`. */
const from = (pieces: string[], max = 12): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...pieces), { maxLength: max }).map((xs) => xs.join(''));
const BLANKS = [' ', '\t', '\n', '\r', '\u2028', '\u00a0'];
const RUNS = { numRuns: 3000 };

describe('linear rewrites match the patterns they replaced', () => {
  it('trimChar = /^-+|-+$/g', () => {
    fc.assert(
      fc.property(from(['-', 'a', '.', ' ']), (s) => trimChar(s, '-') === s.replace(/^-+|-+$/g, '')),
      RUNS,
    );
    expect(licenseRefSlug('--a b--')).toBe('LicenseRef-a-b');
  });

  it('cutFromMarker = /#.*$/ and /;.*$/', () => {
    for (const m of ['#', ';'])
      fc.assert(
        fc.property(
          from([m, 'a', ' ', '\n', '\r', '\u2028']),
          (s) => cutFromMarker(s, m) === s.replace(new RegExp(`${m}.*$`), ''),
        ),
        RUNS,
      );
  });

  it('TOML_HINT finds the same table headers', () => {
    fc.assert(
      fc.property(
        from([...BLANKS, '[project]', '[tool.x]', '[', ']', 'a', '\ufeff']),
        (s) => TOML_HINT.test(s) === OLD.TOML_HINT.test(s),
      ),
      RUNS,
    );
  });

  it('modelfileDirective captures what MODELFILE_LINE captured', () => {
    fc.assert(
      fc.property(from([...BLANKS, 'FROM', 'from', 'LICENSE', 'x', '"', 'FROMx']), (s) => {
        const m = OLD.MODELFILE_LINE.exec(s);
        const n = modelfileDirective(s);
        return m ? n !== null && n.keyword === m[1] && n.value === m[2] : n === null;
      }),
      RUNS,
    );
  });

  it('REQ_LINE matches the same lines with the same name, extras and specs', () => {
    fc.assert(
      fc.property(from(['a', '1', ' ', '\t', '[x]', '[', '==', '>=', '<', '1.0', ',', ';', '#', '!', '\n']), (s) => {
        const m = OLD.REQ_LINE.exec(s);
        const n = REQ_LINE.exec(s);
        return m === null ? n === null : n !== null && n[1] === m[1] && n[2] === m[2] && n[3] === m[3];
      }),
      RUNS,
    );
  });

  it('removeVersionOperators = the global replace of \\s*(op)\\s*', () => {
    fc.assert(
      fc.property(
        from([...BLANKS, '==', '=', '===', '<', '>', '~=', '!=', '!', 'a', '1']),
        (s) => removeVersionOperators(s) === s.replace(/\s*(===|==|>=|<=|~=|!=|<|>)\s*/g, ''),
      ),
      RUNS,
    );
  });

  it('PROSE_LICENSE finds the same licence', () => {
    fc.assert(
      fc.property(
        from([
          'license',
          'Licence',
          'licensed',
          '#',
          ':',
          ']',
          '[',
          ' ',
          '\n',
          'under ',
          'the ',
          'MIT',
          'Apache 2.0',
          'x',
          '# ',
        ]),
        (s) => (PROSE_LICENSE.exec(s)?.[1] ?? null) === (OLD.PROSE_LICENSE.exec(s)?.[1] ?? null),
      ),
      RUNS,
    );
  });

  it('isRestrictiveLicense = RESTRICTIVE', () => {
    fc.assert(
      fc.property(
        from(['rail', 'open', 'llama', '2', '-', ' ', '\n', 'gemma', 'other', 'x', '.1']),
        (s) => isRestrictiveLicense(s) === OLD.RESTRICTIVE.test(s),
      ),
      RUNS,
    );
  });

  it('isPlaceholderName, hasHtmlComment and githubOwner = their patterns', () => {
    fc.assert(
      fc.property(from(['<', '>', 'your-', 'example', 'a', ' ', '<!--', '-->', '-', '!']), (s) => {
        return isPlaceholderName(s) === OLD.PLACEHOLDER_NAME.test(s) && hasHtmlComment(s) === OLD.HTML_COMMENT.test(s);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(
        from(['github.com', 'GitHub.com', '/', ':', 'a', 'x']),
        (s) => githubOwner(s) === (OLD.GITHUB_OWNER.exec(s)?.[1] ?? null),
      ),
      RUNS,
    );
  });

  it('splitVersionOperator and isPinned = their patterns', () => {
    fc.assert(
      fc.property(from([...BLANKS, '==', '=', '<', '>', '~=', '!=', '1', '.', '*', ',']), (s) => {
        const m = OLD.SPEC.exec(s);
        const n = splitVersionOperator(s);
        return (
          (m === null ? n === null : n !== null && n.op === m[1] && n.version === m[2]) &&
          isPinned('pypi', s) === OLD.PINNED.test(s.trim())
        );
      }),
      RUNS,
    );
  });
});
