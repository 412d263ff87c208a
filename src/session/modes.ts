import type { SessionModeState } from "@agentclientprotocol/sdk";

/** Session modes, named as Claude Code's permission modes. */
export const MODE_IDS = ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk"] as const;
export type ModeId = (typeof MODE_IDS)[number];

const MODES: SessionModeState["availableModes"] = [
  { id: "default", name: "Default", description: "Ask before running Bash, Write or Edit" },
  { id: "acceptEdits", name: "Accept edits", description: "Edit files freely; ask before Bash" },
  { id: "bypassPermissions", name: "Bypass permissions", description: "Never ask" },
  { id: "plan", name: "Plan", description: "Read-only: tools that change things are refused" },
  {
    id: "dontAsk",
    name: "Don't ask",
    description: "Never ask: what no rule or hook approved is refused",
  },
];

export function isModeId(id: string): id is ModeId {
  return (MODE_IDS as readonly string[]).includes(id);
}

export function modeState(current: ModeId): SessionModeState {
  return { currentModeId: current, availableModes: MODES };
}

/**
 * What a mode does with a tool call before any hook or rule says otherwise; `dontAsk` refuses
 * what would ask (the permission step), so here it reads as `default`.
 */
export function modePolicy(
  mode: ModeId,
  tool: { mutating: boolean; kind: string; external?: { readOnlyHint: boolean } | undefined },
): "allow" | "ask" | "refuse" {
  if (tool.external) {
    // A server's annotations are its own claims: they may let a tool into plan mode, but
    // never spare the user the question. `acceptEdits` covers hookgate's file edits only.
    if (mode === "bypassPermissions") return "allow";
    if (mode === "plan" && !tool.external.readOnlyHint) return "refuse";
    return "ask";
  }
  if (!tool.mutating) return "allow";
  switch (mode) {
    case "default":
    case "dontAsk":
      return "ask";
    case "acceptEdits":
      return tool.kind === "execute" ? "ask" : "allow";
    case "bypassPermissions":
      return "allow";
    case "plan":
      return "refuse";
  }
}
