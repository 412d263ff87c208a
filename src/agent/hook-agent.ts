import type {
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3ToolCall,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import {
  agentVerdictSchema,
  VERDICT_TOOL,
  type HookAgent,
  type HookAgentEnd,
} from "../hooks/agent-hook.js";
import { errorMessage } from "../shared/values.js";
import { firstIssue } from "../shared/zod-issues.js";
import { globTool } from "../tools/glob.js";
import { grepTool } from "../tools/grep.js";
import { readTool } from "../tools/read.js";
import { toolDefinitionsForModel, type AnyTool, type ToolContext } from "../tools/index.js";

/** What an agent hook's subagent may use: reads only, never a write or a command. */
export const HOOK_AGENT_TOOLS: readonly AnyTool[] = [readTool, grepTool, globTool];

/** The verdict tool, as Claude Code 2.1.332 describes it to the model. */
const VERDICT_DEFINITION: LanguageModelV3FunctionTool = {
  type: "function",
  name: VERDICT_TOOL,
  description:
    "Use this tool to return your verification result. You MUST call this tool exactly once at the end of your response.",
  inputSchema: {
    type: "object",
    properties: {
      ok: { type: "boolean", description: "Whether the condition was met" },
      reason: { type: "string", description: "Reason, if the condition was not met" },
    },
    required: ["ok"],
    additionalProperties: false,
  },
};

/** Claude Code's one reminder to a subagent that stopped without its verdict. */
export const VERDICT_REMINDER = `[structured-output-enforce] You MUST call the ${VERDICT_TOOL} tool to complete this request. Call this tool now.`;

/** The subagent's tools as the model sees them: built when a hook runs, not with every session. */
function definitions(): LanguageModelV3FunctionTool[] {
  return [
    ...toolDefinitionsForModel(HOOK_AGENT_TOOLS).map((d): LanguageModelV3FunctionTool => ({
      type: "function",
      name: d.name,
      description: d.description,
      inputSchema: d.jsonSchema,
    })),
    VERDICT_DEFINITION,
  ];
}

/**
 * The session's model as `agent` hooks run it: a loop of model steps with Read, Grep, Glob and
 * the verdict tool, no thinking. Its tools run straight from here, never through the session's
 * gate, so no hook (this one included) is asked about them. `tools` is the session's tool
 * context without its signal: the hook's own signal (timeout, cancel, the turn's cancel)
 * stops the model and the tools alike. `refuses` names why the session's permission rules
 * forbid a call (a deny, or an ask nobody is there to answer): the subagent reads that instead
 * of the result, so a model that steers a hook's input cannot make it read what a rule denies.
 */
export function hookAgentOf(
  model: LanguageModelV3,
  tools: Omit<ToolContext, "signal" | "showContent">,
  refuses: (toolName: string, input: unknown) => string | undefined = () => undefined,
): HookAgent {
  return async ({ system, prompt: task, maxTurns, signal }) => {
    const ctx: ToolContext = { ...tools, signal };
    const prompt: LanguageModelV3Prompt = [
      { role: "system", content: system },
      { role: "user", content: [{ type: "text", text: task }] },
    ];
    const offered = definitions();
    let turns = 0;
    let reminded = false;
    let lastError: string | undefined;
    for (;;) {
      signal.throwIfAborted();
      const result = await model.doGenerate({ prompt, tools: offered, abortSignal: signal });
      turns++;
      // As Claude Code: the step that reaches the limit is not acted on.
      if (turns >= maxTurns) return { status: "turn_limit", turns };
      const said = result.content.flatMap((part) =>
        part.type === "text" || part.type === "tool-call" ? [part] : [],
      );
      prompt.push({ role: "assistant", content: said });
      const calls = said.filter((part) => part.type === "tool-call");
      if (calls.length === 0) {
        if (reminded) return undecided(turns, lastError);
        reminded = true;
        prompt.push({ role: "user", content: [{ type: "text", text: VERDICT_REMINDER }] });
        continue;
      }
      const results: LanguageModelV3ToolResultPart[] = [];
      for (const call of calls) {
        if (call.toolName === VERDICT_TOOL) {
          const verdict = readVerdict(call.input);
          if (verdict.ok) return { status: "decided", verdict: verdict.value, turns };
          lastError = verdict.error;
          results.push(resultPart(call, verdict.error, true));
          continue;
        }
        const outcome = await runTool(call, ctx, refuses);
        results.push(resultPart(call, outcome.text, outcome.error));
      }
      prompt.push({ role: "tool", content: results });
    }
  };
}

function undecided(turns: number, last: string | undefined): HookAgentEnd {
  return { status: "no_verdict", turns, ...(last !== undefined && { last }) };
}

function readVerdict(
  input: string,
): { ok: true; value: ReturnType<typeof agentVerdictSchema.parse> } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return { ok: false, error: `${VERDICT_TOOL} input is not JSON` };
  }
  const parsed = agentVerdictSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `${VERDICT_TOOL} schema mismatch: ${firstIssue(parsed.error)}` };
}

/** One read-only tool call; a failure is the model's to read, never the hook's end. */
async function runTool(
  call: LanguageModelV3ToolCall,
  ctx: ToolContext,
  refuses: (toolName: string, input: unknown) => string | undefined,
): Promise<{ text: string; error: boolean }> {
  const tool = HOOK_AGENT_TOOLS.find((t) => t.name === call.toolName);
  if (!tool) return { text: `No such tool available: ${call.toolName}`, error: true };
  let args: unknown;
  try {
    args = JSON.parse(call.input);
  } catch {
    return { text: `${call.toolName}: the input is not JSON`, error: true };
  }
  const parsed = tool.inputSchema.safeParse(args);
  if (!parsed.success) {
    return { text: `${call.toolName}: ${firstIssue(parsed.error)}`, error: true };
  }
  const refusal = refuses(call.toolName, parsed.data);
  if (refusal !== undefined) return { text: refusal, error: true };
  try {
    const result = await tool.execute(parsed.data, ctx);
    return { text: result.output, error: false };
  } catch (error) {
    // The hook's signal ends the run, not just the call.
    ctx.signal.throwIfAborted();
    return { text: errorMessage(error), error: true };
  }
}

function resultPart(
  call: LanguageModelV3ToolCall,
  text: string,
  error: boolean,
): LanguageModelV3ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: error ? { type: "error-text", value: text } : { type: "text", value: text },
  };
}
