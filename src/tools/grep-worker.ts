/** One matching line. */
export interface LineMatch {
  readonly line: number;
  readonly text: string;
}

/** What scanning one file found. */
export interface FileScan {
  readonly path: string;
  readonly mtimeMs: number;
  /** Matching lines; counted always, kept only when asked for. */
  readonly count: number;
  readonly matches: readonly LineMatch[];
}

/** How much of each file to look at. */
export type ScanDepth = "first" | "count" | "lines";

/** What the main thread hands the worker as `workerData`. */
export interface ScanJob {
  readonly files: readonly string[];
  /** Real paths of the workspace roots: a file whose opened descriptor lies elsewhere is not read. */
  readonly roots: readonly string[];
  /** The compiled pattern's `source` and `flags`: a RegExp cannot cross threads. */
  readonly source: string;
  readonly flags: string;
  readonly depth: ScanDepth;
  readonly maxFileBytes: number;
  readonly sniffBytes: number;
  readonly maxTestedChars: number;
  readonly batchSize: number;
}

/**
 * What the worker posts: one report per batch of files, in file order, then `done`. After
 * each batch it waits for `"next"`, so the main thread can stop it and memory stays bounded.
 */
export type ScanReport =
  | {
      readonly kind: "batch";
      /** Files with at least one matching line. */
      readonly scans: FileScan[];
      readonly skipped: number;
      readonly cutLines: number;
    }
  | { readonly kind: "done" };

/** What scanning one file found, inside the worker. */
interface FileOutcome {
  readonly scan?: FileScan;
  readonly skipped: boolean;
  readonly cutLines: number;
}

/**
 * The Grep worker's whole program. It runs from its source text (an eval'd worker, see
 * grep-scan.ts), so its body may use nothing from outside itself but Node built-ins;
 * `looksBinary` and `splitLines` from text.ts are repeated here for that reason.
 */
export function grepWorkerProgram(): void {
  // getBuiltinModule works whether the eval'd source runs as CommonJS or as a module (a
  // parent started with --input-type=module passes that on); require covers Node < 20.16,
  // named through globalThis so that a bundler leaves it alone (the worker has no bundle).
  function builtin(id: string): unknown {
    if (typeof process.getBuiltinModule === "function") return process.getBuiltinModule(id);
    return globalThis.require(id);
  }
  const threads = builtin("node:worker_threads") as typeof import("node:worker_threads");
  const { constants, promises: fs } = builtin("node:fs") as typeof import("node:fs");
  const path = builtin("node:path") as typeof import("node:path");
  const port = threads.parentPort;
  if (port === null) return;
  const job = threads.workerData as ScanJob;
  const regex = new RegExp(job.source, job.flags);
  // O_NONBLOCK: a FIFO that replaced a listed file must not park a thread-pool thread in open().
  const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

  function inside(real: string): boolean {
    return job.roots.some((root) => {
      const rel = path.relative(root, real);
      return (
        rel === "" || (!path.isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${path.sep}`))
      );
    });
  }

  // Checked on what was opened, not on the listed name: a symlink swapped in after the
  // listing must not lead the read outside. Without /proc, the name's real path is compared
  // by device and inode with the descriptor's.
  async function openedInside(p: string, handle: import("node:fs/promises").FileHandle) {
    const real = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (real !== undefined && path.isAbsolute(real)) return inside(real);
    const named = await fs.realpath(p).catch(() => undefined);
    if (named === undefined || !inside(named)) return false;
    const [opened, current] = await Promise.all([handle.stat(), fs.stat(named)]);
    return opened.dev === current.dev && opened.ino === current.ino;
  }

  async function readRegular(
    p: string,
  ): Promise<{ bytes: Buffer; mtimeMs: number } | "skipped" | "gone"> {
    // An unreadable file (permissions, deleted meanwhile) is passed over like a vanished one.
    const handle = await fs.open(p, openFlags).catch(() => undefined);
    if (handle === undefined) return "gone";
    try {
      if (!(await openedInside(p, handle))) return "gone";
      const info = await handle.stat();
      if (!info.isFile()) return "gone";
      if (info.size > job.maxFileBytes) return "skipped";
      return { bytes: await handle.readFile(), mtimeMs: info.mtimeMs };
    } catch {
      return "gone";
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  async function scanFile(p: string): Promise<FileOutcome> {
    const read = await readRegular(p);
    if (read === "gone") return { skipped: false, cutLines: 0 };
    if (read === "skipped" || read.bytes.subarray(0, job.sniffBytes).includes(0)) {
      return { skipped: true, cutLines: 0 };
    }
    const text = read.bytes.toString("utf8");
    const lines = text === "" ? [] : text.split(/\r?\n/);
    if (lines[lines.length - 1] === "") lines.pop();

    const matches: LineMatch[] = [];
    let count = 0;
    let cutLines = 0;
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i] ?? "";
      if (line.length > job.maxTestedChars) {
        line = line.slice(0, job.maxTestedChars);
        cutLines += 1;
      }
      if (!regex.test(line)) continue;
      count += 1;
      if (job.depth === "lines") matches.push({ line: i + 1, text: line });
      if (job.depth === "first") break;
    }
    const scan = count > 0 ? { path: p, mtimeMs: read.mtimeMs, count, matches } : undefined;
    return { scan, skipped: false, cutLines };
  }

  function nextWanted(from: NonNullable<typeof port>): Promise<boolean> {
    return new Promise((resolve) => from.once("message", (reply) => resolve(reply === "next")));
  }

  async function main(from: NonNullable<typeof port>): Promise<void> {
    for (let start = 0; start < job.files.length; start += job.batchSize) {
      const batch = job.files.slice(start, start + job.batchSize);
      const outcomes = await Promise.all(batch.map(scanFile));
      const report: ScanReport = {
        kind: "batch",
        scans: outcomes.flatMap((o) => (o.scan === undefined ? [] : [o.scan])),
        skipped: outcomes.filter((o) => o.skipped).length,
        cutLines: outcomes.reduce((sum, o) => sum + o.cutLines, 0),
      };
      from.postMessage(report);
      if (!(await nextWanted(from))) return;
    }
    from.postMessage({ kind: "done" } satisfies ScanReport);
  }

  // A failure here is an uncaught rejection in the worker: the main thread sees an "error" event.
  // oxlint-disable-next-line typescript/no-floating-promises -- that event is the report
  main(port);
}
