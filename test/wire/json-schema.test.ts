import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { interpretReply } from "../../src/hooks/result.js";
import { hookRunResultSchema, strictHookReplySchema } from "../../src/wire/hook-run-result.js";
import { JSON_SCHEMA_ID, JSON_SCHEMA_PATH } from "../../src/wire/json-schema.js";

const shipped = JSON.parse(
  readFileSync(new URL(`../../${JSON_SCHEMA_PATH}`, import.meta.url), "utf8"),
) as object;

// Loaded as a validator in any language would: the file alone, under its own `$id`.
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(shipped);

function validator(ref: string) {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`${JSON_SCHEMA_PATH} has no ${ref}`);
  return validate;
}

/** Replies a client may send; whether the agent reads each is the parser's to say. */
const REPLIES: readonly unknown[] = [
  null,
  {},
  { decision: "deny", reason: "no rm -rf" },
  { decision: "allow", future: 1 },
  { decision: "perhaps" },
  { reason: "fine" },
  { suppressOutput: true, extra: 1 },
  { async: true, asyncTimeout: 30 },
  { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } },
  { hookSpecificOutput: { permisionDecision: "deny" } },
  { decision: "deny", reason: 7 },
  { decision: "block", reason: 7 },
  { decision: "deny", updatedInput: "rm -rf /" },
  { permissionDecision: "deny", reason: "no rm -rf" },
  { decison: "deny" },
  { stopReason: "done", stop: true },
  { continue: "no" },
  { updatedInput: [] },
  { hookSpecificOutput: { permissionDecision: 1 } },
  { hookSpecificOutput: "deny" },
  "deny",
  3,
  [],
];

describe("the shipped JSON Schema and the agent's reader agree on a reply", () => {
  const byId = validator(`${JSON_SCHEMA_ID}#/$defs/HookRunResult`);

  it.each(REPLIES.map((r) => [r]))("%j", (reply) => {
    const read = interpretReply(reply, "PreToolUse");
    const agentReads = read.ok || read.label !== "malformed";
    expect(byId(reply), "HookRunResult in the JSON Schema").toBe(agentReads);
    expect(hookRunResultSchema.safeParse(reply).success, "the zod schema").toBe(agentReads);
  });

  it("each message's definition is reachable through the document's own $id", () => {
    for (const name of ["HookRunResult", "HookRunParams", "UpdateHooksMeta", "StrictHookReply"]) {
      expect(ajv.getSchema(`${JSON_SCHEMA_ID}#/$defs/${name}`), name).toBeDefined();
    }
  });
});

describe("StrictHookReply", () => {
  const strict = validator(`${JSON_SCHEMA_ID}#/$defs/StrictHookReply`);

  it.each([
    { decison: "deny" },
    { decision: "allow", future: 1 },
    { hookSpecificOutput: { permisionDecision: "deny" } },
    { decision: "perhaps" },
  ])("rejects %j, which the agent would not read whole", (reply) => {
    expect(strict(reply)).toBe(false);
    expect(strictHookReplySchema.safeParse(reply).success).toBe(false);
  });

  it.each(REPLIES.filter((r) => strict(r)).map((r) => [r]))(
    "%j passes, and the agent reads it without a warning",
    (reply) => {
      const read = interpretReply(reply, "PreToolUse");
      expect(read.ok && read.warning === undefined).toBe(true);
    },
  );
});
