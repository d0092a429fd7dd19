import { Readable, Transform } from "node:stream";

/**
 * The first `n` bytes of a stream (fewer if it ends before), and a stream that yields everything again from
 * the first byte. Only those bytes are held: the type is sniffed from them while the rest flows on.
 */
export const peek = async (source: Readable, n = 4_100): Promise<{ head: Buffer; stream: Readable }> => {
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = source[Symbol.asyncIterator]();
  let ended = false;
  while (size < n) {
    const next = (await iterator.next()) as IteratorResult<Buffer>;
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    size += chunk.length;
  }
  const first = Buffer.concat(chunks);
  const rest = async function* () {
    yield first;
    if (ended) return;
    for (;;) {
      const next = (await iterator.next()) as IteratorResult<Buffer>;
      if (next.done) return;
      yield next.value;
    }
  };
  return { head: first.subarray(0, n), stream: Readable.from(rest(), { objectMode: false }) };
};

/** Counts the bytes that pass; past `limit`, fails the stream with `tooLarge(total)`. */
export const byteCounter = (limit: number, tooLarge: (total: number) => Error) => {
  let total = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      total += chunk.length;
      if (total > limit) return done(tooLarge(total));
      done(null, chunk);
    },
  });
  return Object.assign(t, { bytes: () => total });
};

