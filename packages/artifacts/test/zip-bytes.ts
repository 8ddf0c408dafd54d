// Byte-level zip writer for tests and benches: members stored or deflated, with the knobs crafted archives turn
// (a local name that differs from the central one, a wrong CRC, the encryption flag, entries sharing one local
// header). Never used on input.
import { crc32, deflateRawSync } from 'node:zlib';
import { u32le } from './support';

export interface ZipMemberSpec {
  name: string;
  data: Uint8Array;
  deflate?: boolean;
  /** Name written in the local header (default: `name`). */
  localName?: string;
  /** CRC written in both headers (default: the real one). */
  crc?: number;
  encrypted?: boolean;
  /** Reuse the local header and data of an earlier member (index): overlapping entries. */
  sharesDataOf?: number;
}

const u16 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff];

export function zipBytes(members: ZipMemberSpec[]): Uint8Array {
  const out: number[] = [];
  const central: number[] = [];
  const offsets: { offset: number; compressed: Uint8Array; crc: number; method: number; flags: number }[] = [];
  for (const member of members) {
    const flags = member.encrypted === true ? 1 : 0;
    let placed: (typeof offsets)[number];
    if (member.sharesDataOf !== undefined) {
      placed = offsets[member.sharesDataOf]!;
    } else {
      const method = member.deflate === true ? 8 : 0;
      const compressed = method === 8 ? new Uint8Array(deflateRawSync(member.data)) : member.data;
      const crc = member.crc ?? crc32(member.data);
      const localName = Buffer.from(member.localName ?? member.name, 'utf8');
      placed = { offset: out.length, compressed, crc, method, flags };
      out.push(
        ...u32le(0x04034b50),
        ...u16(20),
        ...u16(flags),
        ...u16(method),
        ...u16(0),
        ...u16(0),
        ...u32le(crc),
        ...u32le(compressed.length),
        ...u32le(member.data.length),
        ...u16(localName.length),
        ...u16(0),
        ...localName,
      );
      for (const byte of compressed) out.push(byte);
    }
    offsets.push(placed);
    const name = Buffer.from(member.name, 'utf8');
    central.push(
      ...u32le(0x02014b50),
      ...u16(20),
      ...u16(20),
      ...u16(placed.flags),
      ...u16(placed.method),
      ...u16(0),
      ...u16(0),
      ...u32le(placed.crc),
      ...u32le(placed.compressed.length),
      ...u32le(member.data.length),
      ...u16(name.length),
      ...u16(0),
      ...u16(0),
      ...u16(0),
      ...u16(0),
      ...u32le(0),
      ...u32le(placed.offset),
      ...name,
    );
  }
  const cdOffset = out.length;
  const bytes = new Uint8Array(out.length + central.length + 22);
  bytes.set(out, 0);
  bytes.set(central, cdOffset);
  bytes.set(
    [
      ...u32le(0x06054b50),
      ...u16(0),
      ...u16(0),
      ...u16(members.length),
      ...u16(members.length),
      ...u32le(central.length),
      ...u32le(cdOffset),
      ...u16(0),
    ],
    cdOffset + central.length,
  );
  return bytes;
}
