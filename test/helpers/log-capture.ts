import { pino, type Logger, type LevelWithSilent } from "pino";
import { recordingOutput } from "./recording-output.js";

/**
 * A logger for an agent in this process that keeps its JSON lines, as a process writes them
 * to stderr: what a test reads from a process's stderr, it reads here from `text()`.
 */
export function capturedLog(level: LevelWithSilent = "warn"): { log: Logger; text(): string } {
  const { out, writes } = recordingOutput();
  return { log: pino({ name: "hookgate", level }, out), text: () => writes.join("") };
}
