import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { BUILT_CLI } from "./stdio.js";

const execFileAsync = promisify(execFile);

/** Runs the built binary to completion with stdin closed; resolves whatever the exit code. */
export async function runCli(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [BUILT_CLI, ...args], {
      timeout: 15_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
