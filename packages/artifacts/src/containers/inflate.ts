// The one inflate loop for compressed zip members and compressed streams (joblib zlib/gzip): the compressed bytes are
// read a window at a time and handed to the inflater in small pieces, so the callers' caps, checked on every output
// chunk, stop a bomb early (docs/artifacts.md "Containers and caps").
import { Gunzip, Inflate, Unzlib } from 'fflate';
import type { RandomAccess } from '../random-access';

export type Codec = 'zlib' | 'gzip' | 'deflate';

/** The compressed bytes are not a valid stream of their codec. */
export class CorruptStreamError extends Error {}

const READ_CHUNK = 1 << 20;
/**
 * Compressed bytes handed to the inflater at a time. Deflate expands at most about 1032:1, and the caps are checked
 * between pieces, so a bomb overshoots a cap by at most ~4 MiB instead of inflating a whole read window.
 */
const INFLATE_PIECE = 4 * 1024;

/**
 * Inflates `source`, handing each output chunk to `onChunk` with the compressed bytes consumed so far; it returns
 * false to stop early, or throws (a cap) to stop with that error. Throws CorruptStreamError when the inflater rejects
 * the bytes. Returns whether the stream reached its end.
 */
export async function inflateSource(
  source: RandomAccess,
  codec: Codec,
  onChunk: (chunk: Uint8Array, consumed: number) => boolean,
): Promise<boolean> {
  let failure: unknown = null;
  let wanted = true;
  let finished = false;
  let consumed = 0;
  const onData = (chunk: Uint8Array, final: boolean): void => {
    if (failure !== null || !wanted) return;
    try {
      wanted = onChunk(chunk, consumed);
    } catch (error) {
      failure = error;
      return;
    }
    if (final) finished = true;
  };
  const inflater = codec === 'gzip' ? new Gunzip(onData) : codec === 'zlib' ? new Unzlib(onData) : new Inflate(onData);
  const going = (): boolean => failure === null && wanted && !finished;
  for (let at = 0; at < source.size && going(); at += READ_CHUNK) {
    const block = await source.read(at, Math.min(READ_CHUNK, source.size - at));
    for (let i = 0; i < block.length && going(); i += INFLATE_PIECE) {
      const piece = block.subarray(i, Math.min(block.length, i + INFLATE_PIECE));
      consumed += piece.length;
      try {
        inflater.push(piece, at + i + piece.length >= source.size);
      } catch (error) {
        throw new CorruptStreamError((error as Error).message);
      }
    }
  }
  if (failure !== null) throw failure;
  return finished;
}
