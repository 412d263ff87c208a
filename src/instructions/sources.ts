/**
 * The places `--instruction-sources` chooses from: a module of its own, so the command line
 * reads them without loading the instruction files' reader.
 */
export const INSTRUCTION_SOURCES = ["user", "project", "local"] as const;
export type InstructionSource = (typeof INSTRUCTION_SOURCES)[number];
