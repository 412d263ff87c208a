import type { ContentBlock as AcpBlock, ToolCallContent } from "@agentclientprotocol/sdk";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { capOutput, MAX_OUTPUT_CHARS } from "../tools/text.js";

/** Largest base64 image or audio passed on to the client; larger ones become a note. */
export const MAX_BINARY_CHARS = 1024 * 1024;

/** Most content blocks of one result shown to the client. */
export const MAX_BLOCKS = 64;

/** An MCP tool result as hookgate passes it on. */
export interface MappedResult {
  /** ACP content for the final `tool_call_update`. */
  readonly content: ToolCallContent[];
  /** What the model reads, capped like every tool output. */
  readonly output: string;
  /** The result with its content capped: PostToolUse `tool_response` and ACP `rawOutput`. */
  readonly response: { content: AcpBlock[]; isError?: true; structuredContent?: unknown };
}

type McpBlock = CallToolResult["content"][number];

/**
 * Maps MCP content to ACP content (text, image, audio, resource links, embedded resources)
 * and to text for the model. Every value is capped, so a 10 MB result costs the session
 * nothing beyond reading it once.
 */
export function mapResult(result: CallToolResult): MappedResult {
  const blocks: AcpBlock[] = [];
  const said: string[] = [];
  for (const block of result.content.slice(0, MAX_BLOCKS)) {
    const mapped = mapBlock(block);
    blocks.push(mapped.block);
    said.push(mapped.text);
  }
  if (result.content.length > MAX_BLOCKS) {
    const note = `[${result.content.length - MAX_BLOCKS} more content blocks not shown]`;
    blocks.push({ type: "text", text: note });
    said.push(note);
  }
  if (result.content.length === 0 && result.structuredContent !== undefined) {
    const text = capOutput(JSON.stringify(result.structuredContent) ?? "");
    blocks.push({ type: "text", text });
    said.push(text);
  }
  const output = capOutput(said.join("\n"));
  const structured =
    result.structuredContent === undefined
      ? {}
      : { structuredContent: capValue(result.structuredContent) };
  return {
    content: blocks.map((content) => ({ type: "content", content })),
    output: output === "" ? "(no output)" : output,
    response: { content: blocks, ...(result.isError === true && { isError: true }), ...structured },
  };
}

function mapBlock(block: McpBlock): { block: AcpBlock; text: string } {
  switch (block.type) {
    case "text":
      // The model's text is capped once, over the whole result, so its note counts it all.
      return { block: { type: "text", text: capOutput(block.text) }, text: block.text };
    case "image":
    case "audio": {
      const note = `[${block.type} ${block.mimeType}]`;
      if (block.data.length > MAX_BINARY_CHARS) {
        const text = `${note} (${block.data.length} base64 characters, too large to show)`;
        return { block: { type: "text", text }, text };
      }
      return {
        block: { type: block.type, data: block.data, mimeType: block.mimeType },
        text: note,
      };
    }
    case "resource_link": {
      const link: AcpBlock = {
        type: "resource_link",
        uri: block.uri,
        name: block.name,
        ...(block.title !== undefined && { title: block.title }),
        ...(block.description !== undefined && { description: block.description }),
        ...(block.mimeType !== undefined && { mimeType: block.mimeType }),
      };
      return { block: link, text: `[${block.name}](${block.uri})` };
    }
    case "resource": {
      const { resource } = block;
      const mimeType = resource.mimeType === undefined ? {} : { mimeType: resource.mimeType };
      if ("text" in resource && typeof resource.text === "string") {
        const text = capOutput(resource.text);
        return {
          block: { type: "resource", resource: { uri: resource.uri, text, ...mimeType } },
          text: `<resource uri="${resource.uri}">\n${resource.text}\n</resource>`,
        };
      }
      const text = `[binary resource ${resource.uri}]`;
      return {
        block: { type: "resource_link", uri: resource.uri, name: resource.uri, ...mimeType },
        text,
      };
    }
    default: {
      const text = `[unsupported content block]`;
      return { block: { type: "text", text }, text };
    }
  }
}

/** Structured content for hooks and rawOutput, cut to a readable size when huge. */
function capValue(value: unknown): unknown {
  const json = JSON.stringify(value) ?? "null";
  return json.length <= MAX_OUTPUT_CHARS ? value : capOutput(json);
}
