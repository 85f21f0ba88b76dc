/**
 * Tree-shaking of a linked WGSL source down to one entry point: the module-scope declarations
 * (functions, structs, constants, overrides, bindings, workgroup variables) the entry point reaches,
 * in source order, without comments. Why: a kernel file holds every entry point of its family (the
 * NTT's 36, 336 K characters), and a shader module built from the whole file made Tint parse and
 * resolve all of it for each pipeline: the first lde 2^17 x 8 compiled 2.7 M characters on the H100
 * host. One entry point's closure is 5-25 K characters (test/unit/wgsl-shake.test.ts, cold bench).
 *
 * The scan needs only what the linked sources are: `//` comments (WGSL has no strings), module-scope
 * declarations ending at a `;` or at the `}` that closes their body, identifiers as references. A
 * name that is both a local and a global keeps the global: more code, never less.
 * @module
 */

/** One module-scope declaration: its name ('' for none) and its text with attributes. */
interface Decl {
  name: string;
  text: string;
  refs: string[];
}

const DECL_NAME = /^\s*(?:@[\w]+(?:\([^)]*\))?\s*)*(?:fn|struct|const|override|alias|var(?:<[^>]*>)?)\s+([A-Za-z_]\w*)/;
const IDENT = /[A-Za-z_]\w*/g;

function stripComments(code: string): string {
  return code.replace(/\/\/[^\n]*/g, '');
}

/** The module-scope declarations of `code`, in order. */
export function declarations(code: string): Decl[] {
  const src = stripComments(code);
  const out: Decl[] = [];
  let depth = 0;
  let start = 0;
  const push = (end: number) => {
    const text = src.slice(start, end).trim();
    start = end;
    if (!text || text === ';') return;
    const name = DECL_NAME.exec(text)?.[1] ?? '';
    out.push({ name, text, refs: text.match(IDENT) ?? [] });
  };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) {
        // A struct may end `};`: the `;` goes with it.
        let end = i + 1;
        while (end < src.length && /\s/.test(src[end])) end++;
        push(src[end] === ';' ? end + 1 : i + 1);
        i = start - 1;
      }
    } else if (ch === ';' && depth === 0) push(i + 1);
  }
  push(src.length);
  return out;
}

/** A source's declarations and where each name is declared. */
interface Parsed {
  decls: Decl[];
  byName: Map<string, number[]>;
}

function parse(code: string): Parsed {
  const decls = declarations(code);
  const byName = new Map<string, number[]>();
  decls.forEach((d, i) => {
    if (d.name) byName.set(d.name, [...(byName.get(d.name) ?? []), i]);
  });
  return { decls, byName };
}

/**
 * Family bodies parsed once: every pipeline of a family shakes the same body (the NTT's is 336 K
 * characters; parsing it took 10-40 ms a pipeline on a 2-core VM, ~100 ms of a first lde call
 * before its first compile request). Keyed by the body string itself, which the loaded family
 * holds, so a lookup hashes nothing new.
 */
const BODIES = new Map<string, Parsed>();

/**
 * The part of `prelude` + `code` that entry point `entry` uses: its declaration and, transitively,
 * every declaration its text names, in source order. Declarations without a name (directives
 * such as `enable`) stay. `code` (a family's body) is parsed once per process; `prelude` (its
 * plan's constants) every call.
 * @throws Error when neither declares `entry`
 */
export function shakeToEntry(code: string, entry: string, prelude = ''): string {
  let body = BODIES.get(code);
  if (!body) BODIES.set(code, (body = parse(code)));
  const head = parse(prelude);
  // One index space: the prelude's declarations, then the body's.
  const n = head.decls.length;
  const decl = (i: number) => (i < n ? head.decls[i] : body.decls[i - n]);
  const where = (name: string) => [...(head.byName.get(name) ?? []), ...(body.byName.get(name) ?? []).map((i) => i + n)];
  const root = where(entry);
  if (root.length === 0) throw new Error(`WGSL entry point ${entry} is not declared`);
  const keep = new Set<number>();
  head.decls.forEach((d, i) => d.name || keep.add(i));
  body.decls.forEach((d, i) => d.name || keep.add(i + n));
  const stack = [...root];
  while (stack.length) {
    const i = stack.pop()!;
    if (keep.has(i)) continue;
    keep.add(i);
    for (const ref of decl(i).refs) for (const j of where(ref)) if (!keep.has(j)) stack.push(j);
  }
  return (
    [...keep]
      .sort((a, b) => a - b)
      .map((i) => decl(i).text)
      .join('\n') + '\n'
  );
}
