import { Worker } from "node:worker_threads";
import pTimeout from "p-timeout";
import {
  grepWorkerProgram,
  type FileScan,
  type ScanDepth,
  type ScanJob,
  type ScanReport,
} from "./grep-worker.js";
import { BINARY_SNIFF_BYTES } from "./text.js";
import { ToolError } from "./types.js";
import { errorMessage } from "../shared/values.js";

export type { FileScan, LineMatch, ScanDepth } from "./grep-worker.js";

/** Files larger than this are skipped by Grep. */
export const MAX_GREP_FILE_BYTES = 5 * 1024 * 1024;

/** How long one Grep may scan before its worker is stopped. */
export const GREP_DEADLINE_MS = 30_000;

/**
 * Longest part of a line the pattern is tested against. Bounds the work per line; a
 * slow pattern is still only stopped by the deadline.
 */
export const MAX_TESTED_LINE_CHARS = 10_000;

/** Files read at once; results are still consumed in order. */
const BATCH_SIZE = 16;

/**
 * The worker runs from source text, so there is no worker file to find: the same code
 * works from src/ under vitest (where a .ts worker file could not load) and from dist/.
 */
const WORKER_SOURCE = `(${grepWorkerProgram.toString()})();`;

/**
 * Compiles the model's pattern. Unicode mode first (so `\p{L}` works), then the lenient
 * legacy mode that ripgrep-style escapes such as `\-` need.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  const flags = ignoreCase ? "i" : "";
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (err) {
      const why = errorMessage(err);
      throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}: ${why}`);
    }
  }
}

/** What a whole scan passed over, for the notes under the results. */
export interface ScanSummary {
  /** Files skipped as binary or too large. */
  readonly skipped: number;
  /** Lines tested only in their first MAX_TESTED_LINE_CHARS characters. */
  readonly cutLines: number;
}

/** Tuning for tests; the tool uses the defaults. */
export interface ScanOptions {
  readonly deadlineMs?: number;
}

/** Feeds the worker's reports to `take` in order, asking for the next batch while it wants more. */
function converse(worker: Worker, take: (scan: FileScan) => boolean): Promise<ScanSummary> {
  return new Promise<ScanSummary>((resolve, reject) => {
    let skipped = 0;
    let cutLines = 0;
    worker.on("message", (report: ScanReport) => {
      if (report.kind === "done") return resolve({ skipped, cutLines });
      skipped += report.skipped;
      cutLines += report.cutLines;
      try {
        if (!report.scans.every((scan) => take(scan))) return resolve({ skipped, cutLines });
      } catch (err) {
        return reject(err);
      }
      worker.postMessage("next");
    });
    worker.on("error", reject);
    worker.on("exit", (code) => reject(new Error(`The Grep worker exited early (code ${code})`)));
  });
}

/**
 * Scans files in the given order in a worker thread, handing every file that has at
 * least one match to `take`; `take` returns false to stop early. A file whose opened
 * descriptor lies outside `roots` (real paths) is passed over unread. The worker keeps a
 * slow pattern off the main thread and is terminated on abort, at the deadline and
 * when the scan ends. Rejects with the signal's reason on abort.
 */
export async function scanFiles(
  files: readonly string[],
  regex: RegExp,
  depth: ScanDepth,
  roots: readonly string[],
  signal: AbortSignal,
  take: (scan: FileScan) => boolean,
  options: ScanOptions = {},
): Promise<ScanSummary> {
  signal.throwIfAborted();
  if (files.length === 0) return { skipped: 0, cutLines: 0 };
  const deadlineMs = options.deadlineMs ?? GREP_DEADLINE_MS;
  const job: ScanJob = {
    files,
    roots,
    source: regex.source,
    flags: regex.flags,
    depth,
    maxFileBytes: MAX_GREP_FILE_BYTES,
    sniffBytes: BINARY_SNIFF_BYTES,
    maxTestedChars: MAX_TESTED_LINE_CHARS,
    batchSize: BATCH_SIZE,
  };
  // stdout: true keeps the worker's stdout off ours, which carries protocol frames only.
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: job, stdout: true });
  try {
    return await pTimeout(converse(worker, take), {
      milliseconds: deadlineMs,
      signal,
      message: new ToolError(
        `Grep stopped after ${deadlineMs} ms: the pattern may be too slow (catastrophic backtracking?) ` +
          "or the search too large. Avoid nested quantifiers such as (a+)+, or narrow path or glob.",
      ),
    });
  } finally {
    await worker.terminate();
  }
}
