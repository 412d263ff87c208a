import { errorMessage } from "./values.js";

/** One line for a command-line mistake, instead of Node's long parseArgs message. */
export function usageError(error: unknown): string {
  const message = errorMessage(error);
  const unknown = /^Unknown option '([^']*)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(-\S+)(?:, (--\S+))?[^']*' argument missing/.exec(message);
  if (missing) return `${missing[2] ?? missing[1]} needs a value`;
  const flag = /^Option '(-\S+)(?:, (--\S+))?' does not take an argument/.exec(message);
  if (flag) return `${flag[2] ?? flag[1]} does not take a value`;
  return message.split("\n")[0] ?? message;
}
