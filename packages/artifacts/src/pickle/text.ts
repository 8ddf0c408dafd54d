// Decoders for the text arguments of protocol 0 opcodes (pickletools: stringnl, unicodestringnl, decimalnl) and the
// strings a scanner looks inside (code, pickles encoded as base64 or hex). Nothing here evaluates anything.

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** UTF-8 that must be valid (GLOBAL and INST names: CPython decodes them strictly and fails the load otherwise). */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  // Names and keys are short ASCII: building them by char code is far cheaper than a TextDecoder call.
  if (bytes.length <= 64 && bytes.every((byte) => byte < 0x80)) {
    let ascii = '';
    for (let i = 0; i < bytes.length; i++) ascii += String.fromCharCode(bytes[i]!);
    return ascii;
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

export function decodeUtf8Lenient(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
}

export function decodeLatin1(bytes: Uint8Array): string {
  return latin1.decode(bytes);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};

/**
 * The STRING opcode's argument: a repr-quoted Python string (`'abc'` or `"abc"`) with backslash escapes. Returns
 * null when the quotes do not match (CPython: "the STRING opcode argument must be quoted").
 */
export function decodeQuotedString(line: string): string | null {
  if (line.length < 2) return null;
  const quote = line[0];
  if ((quote !== "'" && quote !== '"') || line[line.length - 1] !== quote) return null;
  const body = line.slice(1, -1);
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[++i]!;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) out += simple;
    else if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else out += `\\${next}`;
  }
  return out;
}

/** The UNICODE opcode's argument: raw-unicode-escape (only \uXXXX and \UXXXXXXXX are escapes). */
export function decodeRawUnicodeEscape(bytes: Uint8Array): string {
  const text = decodeLatin1(bytes);
  if (!text.includes('\\u') && !text.includes('\\U')) return text;
  return text.replace(
    /\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g,
    (_, short: string | undefined, long: string | undefined) => {
      const code = parseInt((short ?? long)!, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    },
  );
}

const BASE64 = /^[A-Za-z0-9+/\n\r]+={0,2}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Bytes a string stands for when it is base64 or hex (a pickle or code hidden in a string), else null. */
export function decodeEncodedText(text: string): Uint8Array | null {
  if (text.length < 12) return null;
  if (HEX.test(text)) return new Uint8Array(Buffer.from(text, 'hex'));
  if (text.length % 4 === 0 && BASE64.test(text)) return new Uint8Array(Buffer.from(text, 'base64'));
  return null;
}

/**
 * Python source that runs commands or code: a string a careful reviewer must see even when nothing in the pickle
 * calls it (docs/artifacts.md "Code strings"). Deliberately narrow: call syntax of the command-execution and
 * code-evaluation names, not the bare words.
 */
const CODE_PATTERN =
  /\b(?:os\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|remove|unlink)\s*\(|subprocess\.(?:run|call|Popen|check_output|check_call|getoutput)\s*\(|__import__\s*\(\s*['"]|(?:^|[;\s(])(?:eval|exec)\s*\(|import\s+(?:os|subprocess|socket|pty|ctypes)\b|pty\.spawn\s*\(|socket\.socket\s*\(|base64\.b64decode\s*\()/;

export function looksLikeCode(text: string): boolean {
  // Every pattern but `import x` needs an opening parenthesis: most strings (keys, names) are rejected without a regex.
  if (!text.includes('(') && !text.includes('import')) return false;
  return CODE_PATTERN.test(text);
}
