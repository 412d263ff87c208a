import { Writable } from "node:stream";

/**
 * An output that records each write it is asked for, a `writev` as one (as a socket turns it
 * into one system call), so a test can see which frames left together.
 */
export function recordingOutput(): { out: Writable; writes: string[] } {
  const writes: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString("utf8"));
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map((c) => String(c.chunk)).join(""));
      done();
    },
  });
  return { out, writes };
}
