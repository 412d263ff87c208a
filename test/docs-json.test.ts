import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { claudeSettingsSchema } from "../src/command-hooks/settings-schema.js";
import { configFileSchema } from "../src/cli/config.js";
import { isHookEventName } from "../src/wire/events.js";
import { interpretReply } from "../src/hooks/result.js";
import { sessionMetaSchema } from "../src/store/metadata.js";
import {
  hookEventParamsSchema,
  hookInputSchemas,
  hookRunParamsSchema,
} from "../src/wire/hook-input.js";
import { hookRunResultSchema, knownHookReplySchema } from "../src/wire/hook-run-result.js";
import { sessionHooksReportSchema, settingsReportSchema } from "../src/wire/hook-reports.js";
import { hookRegistrationSchema } from "../src/wire/registration.js";
import { updateHooksMetaSchema } from "../src/wire/meta.js";
import { defValidator, methodDef } from "./helpers/schema.js";
import { describeIssue } from "../src/shared/zod-issues.js";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const pages = [
  "README.md",
  ...readdirSync(new URL("../docs/", import.meta.url))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

interface Example {
  readonly where: string;
  readonly value: unknown;
}

function examples(): Example[] {
  return pages.flatMap((page) => {
    const text = read(page);
    return [...text.matchAll(/^```json[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => {
      const line = text.slice(0, m.index).split("\n").length;
      return { where: `${page}:${line}`, value: JSON.parse(m[1] ?? "") as unknown };
    });
  });
}

type Check = (value: unknown) => string | undefined;

const zodCheck =
  (schema: z.ZodType, prefix = ""): Check =>
  (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? undefined : describeIssue(parsed.error.issues[0], prefix);
  };

const acpCheck =
  (name: string): Check =>
  (value) => {
    const validate = defValidator(name);
    return validate(value) ? undefined : JSON.stringify(validate.errors?.[0]);
  };

/** A reply example: it fits the reply schema and the agent's reader takes it. */
const replyCheck: Check = (value) => {
  const problem = zodCheck(knownHookReplySchema)(value);
  if (problem) return problem;
  const specific = z.object({ hookSpecificOutput: z.object({ hookEventName: z.string() }) });
  const named = specific.safeParse(value);
  const event = named.success ? named.data.hookSpecificOutput.hookEventName : "PreToolUse";
  if (!isHookEventName(event)) return `hookSpecificOutput.hookEventName: unknown event ${event}`;
  const read = interpretReply(value, event);
  return read.ok ? undefined : read.message;
};

const zedEntry = z.looseObject({
  type: z.literal("custom").optional(),
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()).optional(),
});

const has = (value: unknown, ...path: string[]): unknown => {
  let at = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null || !(key in at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
};

/** Which schema an example illustrates, and the check against it. */
function schemaFor(value: unknown): { name: string; check: Check } | undefined {
  const method = has(value, "method");
  if (method === "_hooks/run") {
    return {
      name: "_hooks/run params",
      check: (v) => {
        const problem = zodCheck(hookRunParamsSchema, "params")(has(v, "params"));
        if (problem) return problem;
        return zodCheck(hookInputSchemas.PreToolUse, "params.input")(has(v, "params", "input"));
      },
    };
  }
  if (method === "_hooks/event") {
    return {
      name: "_hooks/event params",
      check: (v) => zodCheck(hookEventParamsSchema, "params")(has(v, "params")),
    };
  }
  if (typeof method === "string") {
    const def = methodDef(method, "request-params");
    return {
      name: `${method} params and _meta.hooks`,
      check: (v) => {
        if (def && !def.validate(has(v, "params"))) return JSON.stringify(def.validate.errors?.[0]);
        return zodCheck(
          hookRegistrationSchema,
          "params._meta.hooks",
        )(has(v, "params", "_meta", "hooks") ?? {});
      },
    };
  }
  if (has(value, "result", "_meta", "hooks") !== undefined) {
    return {
      name: "session/new result",
      check: (v) => {
        const acp = acpCheck("NewSessionResponse")(has(v, "result"));
        return (
          acp ??
          zodCheck(
            sessionHooksReportSchema,
            "result._meta.hooks",
          )(has(v, "result", "_meta", "hooks"))
        );
      },
    };
  }
  if (has(value, "jsonrpc") !== undefined && has(value, "result") !== undefined) {
    return {
      name: "_hooks/run result",
      check: (v) => zodCheck(hookRunResultSchema, "result")(has(v, "result")),
    };
  }
  if (Array.isArray(has(value, "_meta", "hooks"))) {
    return {
      name: "tool_call_update _meta.hooks",
      check: (v) => zodCheck(updateHooksMetaSchema, "_meta")(has(v, "_meta")),
    };
  }
  if (has(value, "_meta", "hooks") !== undefined) {
    return {
      name: "session/new _meta.hooks",
      check: (v) => zodCheck(hookRegistrationSchema, "_meta.hooks")(has(v, "_meta", "hooks")),
    };
  }
  if (has(value, "sessionUpdate") !== undefined)
    return { name: "ACP SessionUpdate", check: acpCheck("SessionUpdate") };
  if (has(value, "agent_servers") !== undefined) {
    return {
      name: "Zed agent_servers",
      check: zodCheck(z.object({ agent_servers: z.record(z.string(), zedEntry) })),
    };
  }
  if (has(value, "settings") !== undefined) {
    return {
      name: "_meta.hooks.settings",
      check: zodCheck(z.strictObject({ settings: z.array(settingsReportSchema) })),
    };
  }
  if (has(value, "hooks") !== undefined || has(value, "permissions") !== undefined)
    return { name: "Claude Code settings file", check: zodCheck(claudeSettingsSchema) };
  const handlerField = has(value, "url") ?? has(value, "prompt") ?? has(value, "server");
  if (typeof has(value, "type") === "string" && handlerField !== undefined) {
    return {
      name: "settings file handler",
      check: (v) => zodCheck(claudeSettingsSchema)({ hooks: { PreToolUse: [{ hooks: [v] }] } }),
    };
  }
  if (has(value, "version") !== undefined && has(value, "sessionId") !== undefined) {
    return { name: "session record", check: zodCheck(sessionMetaSchema) };
  }
  if (
    ["model", "commands", "apiKeyHelper", "baseUrl", "telemetry"].some(
      (k) => has(value, k) !== undefined,
    )
  ) {
    return { name: "config file", check: zodCheck(configFileSchema) };
  }
  if (
    ["decision", "continue", "hookSpecificOutput", "additionalContext"].some(
      (k) => has(value, k) !== undefined,
    )
  ) {
    return { name: "hook reply", check: replyCheck };
  }
  if (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every(isHookEventName)
  ) {
    return { name: "session/new _meta.hooks", check: zodCheck(hookRegistrationSchema) };
  }
  return undefined;
}

describe("every JSON example in the README and docs", () => {
  it.each(examples())("$where fits the schema it illustrates", ({ value }) => {
    const schema = schemaFor(value);
    expect(schema, "no schema recognised for this example").toBeDefined();
    expect(schema?.check(value), schema?.name).toBeUndefined();
  });

  it("the checks can fail: an outcome report without kind is caught", () => {
    const report = {
      _meta: { hooks: [{ hookCallbackId: "no-rm", outcome: "denied", durationMs: 1 }] },
    };
    expect(schemaFor(report)?.check(report)).toMatch(/kind/);
  });
});
