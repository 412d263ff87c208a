import {
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  closeSync,
  statSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { dirname } from "node:path";
import { errnoCode } from "../shared/values.js";

/** A session file that exists but is not a regular file (a directory, a FIFO, a socket). */
export class NotRegularFileError extends Error {}

/** A session file too large to read back whole. */
export class FileTooLargeError extends Error {}

/** Errors that pass once other files are closed: the fd table was full for a moment. */
const TRANSIENT = new Set(["EMFILE", "ENFILE"]);

/** How often, and how long apart, a transient failure is retried (about 10 s in all). */
const RETRY_DELAYS_MS = [10, 20, 50, 100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000, 1000, 1000];

/**
 * O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer for ever (and hold
 * a libuv thread); the file type is then checked on the open descriptor, before any read.
 */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** True for a failure that goes away once the process (or system) closes some files. */
export function isTransient(error: unknown): boolean {
  return TRANSIENT.has(errnoCode(error) ?? "");
}

/**
 * Runs a file operation, retrying it with backoff while it fails for want of file descriptors.
 * Any other failure, or the last transient one, is thrown.
 */
export async function retryTransient<T>(operation: () => Promise<T>): Promise<T> {
  for (const delay of RETRY_DELAYS_MS) {
    try {
      return await operation();
    } catch (error) {
      if (!isTransient(error)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  return operation();
}

/**
 * Reads a regular file as UTF-8; `undefined` when it does not exist. Never waits on a FIFO and
 * never reads a directory or device: those are a NotRegularFileError naming the path.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await retryTransient(() => open(path, READ_FLAGS));
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new NotRegularFileError(`${path} is not a regular file`);
    if (stat.size > maxBytes) {
      throw new FileTooLargeError(`${path} is ${stat.size} bytes, more than ${maxBytes}`);
    }
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** readRegularFile for the few small files read synchronously (the lock). */
export function readRegularFileSync(path: string, maxBytes: number): string | undefined {
  let fd;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new NotRegularFileError(`${path} is not a regular file`);
    if (stat.size > maxBytes) {
      throw new FileTooLargeError(`${path} is ${stat.size} bytes, more than ${maxBytes}`);
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * `mkdir -p` one directory at a time. Node's `recursive: true` loops for ever where a parent
 * exists but a child cannot be made in it (e.g. under /proc); this fails with the real error.
 */
export function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir);
    return;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") {
      if (statSync(dir).isDirectory()) return;
      throw error;
    }
    if (code !== "ENOENT" || dirname(dir) === dir) throw error;
  }
  makeDirectory(dirname(dir));
  // Once more, now that the parent exists; a second ENOENT is the real answer.
  try {
    mkdirSync(dir);
  } catch (error) {
    if (errnoCode(error) !== "EEXIST" || !statSync(dir).isDirectory()) throw error;
  }
}
