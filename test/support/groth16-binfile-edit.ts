/**
 * Rewrites iden3 binfiles (.zkey, .wtns) section by section, for the bad-input tests: each
 * section's data passes through `edit`, and the file is written back with sizes that match
 * (or, with `declaredSize`, sizes that lie).
 * @module
 */

export interface Section {
  type: number;
  data: Uint8Array;
  /** Write this size in the section header instead of data.length. */
  declaredSize?: number;
}

export function splitBinFile(bytes: Uint8Array): { head: Uint8Array; sections: Section[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(8, true);
  const sections: Section[] = [];
  let pos = 12;
  for (let i = 0; i < count; i++) {
    const type = view.getUint32(pos, true);
    const size = Number(view.getBigUint64(pos + 4, true));
    sections.push({ type, data: bytes.slice(pos + 12, pos + 12 + size) });
    pos += 12 + size;
  }
  return { head: bytes.slice(0, 12), sections };
}

export function joinBinFile(head: Uint8Array, sections: readonly Section[]): Uint8Array {
  const total = 12 + sections.reduce((n, s) => n + 12 + s.data.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(head);
  view.setUint32(8, sections.length, true);
  let pos = 12;
  for (const s of sections) {
    view.setUint32(pos, s.type, true);
    view.setBigUint64(pos + 4, BigInt(s.declaredSize ?? s.data.length), true);
    out.set(s.data, pos + 12);
    pos += 12 + s.data.length;
  }
  return out;
}

/** A copy of `bytes` with section `type`'s data replaced by edit(copy of data). */
export function editSection(bytes: Uint8Array, type: number, edit: (data: Uint8Array) => Uint8Array | void): Uint8Array {
  const { head, sections } = splitBinFile(bytes);
  const s = sections.find((x) => x.type === type);
  if (!s) throw new Error(`no section ${type}`);
  s.data = edit(s.data) ?? s.data;
  return joinBinFile(head, sections);
}

/** Writes the little-endian u32 `v` at data[at..at + 4). */
export function putU32(data: Uint8Array, at: number, v: number): void {
  new DataView(data.buffer, data.byteOffset, data.byteLength).setUint32(at, v, true);
}

/** Writes the little-endian 32-byte `v` at data[at..at + 32). */
export function putU256(data: Uint8Array, at: number, v: bigint): void {
  for (let i = 0; i < 32; i++) data[at + i] = Number((v >> BigInt(8 * i)) & 0xffn);
}
