import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { JSON_SCHEMA_PATH, wireJsonSchema } from "../../src/wire/json-schema.js";
import { startStdio, toolLine, type Session } from "../agent/setup.js";

const shipped: unknown = JSON.parse(
  readFileSync(new URL(`../../${JSON_SCHEMA_PATH}`, import.meta.url), "utf8"),
);

const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(shipped as object, "hookgate");

/** Validates `value` against one definition of the shipped file; returns Ajv's errors. */
function problems(def: string, value: unknown): string[] {
  const validate = ajv.getSchema(`hookgate#/$defs/${def}`);
  if (!validate) throw new Error(`${JSON_SCHEMA_PATH} has no definition ${def}`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

describe("the shipped JSON Schema", () => {
  it("is what the zod schemas generate today", () => {
    expect(
      shipped,
      `${JSON_SCHEMA_PATH} is out of date with src/wire/: run \`npm run schema\` and commit it`,
    ).toEqual(JSON.parse(JSON.stringify(wireJsonSchema())));
  });

  it("compiles under draft 2020-12 in strict mode, every definition", () => {
    const defs = isRecord(shipped) && isRecord(shipped.$defs) ? Object.keys(shipped.$defs) : [];
    expect(defs).toContain("UpdateHooksMeta");
    for (const def of defs) expect(ajv.getSchema(`hookgate#/$defs/${def}`), def).toBeDefined();
  });

  it("rejects a report with an unknown outcome label, naming where", () => {
    const meta = {
      hooks: [{ hookCallbackId: "a", kind: "callback", outcome: "maybe", durationMs: 1 }],
    };
    expect(problems("UpdateHooksMeta", meta)).toContainEqual(
      expect.stringMatching(/^\/hooks\/0\/outcome /),
    );
  });

  it("ships in the package", () => {
    const pkg = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"),
    ) as { files: string[]; exports: Record<string, unknown>; scripts: Record<string, string> };
    expect(pkg.files).toContain("schema");
    expect(pkg.exports["./schema.json"]).toBe(`./${JSON_SCHEMA_PATH}`);
    expect(pkg.scripts.schema).toMatch(/scripts\/schema\.mjs/);
  });
});

describe("frames the real agent sends fit the shipped JSON Schema", () => {
  let s: Session | undefined;
  afterEach(async () => {
    await s?.h.close();
    s = undefined;
  });

  it("capability, session report, _hooks/run and _hooks/event, tool call and steering _meta", async () => {
    s = await startStdio({
      hooks: {
        gate: () => ({ decision: "allow", reason: "writes are fine here" }),
        prompt: () => ({ additionalContext: "the user prefers short answers" }),
      },
    });
    const opened = await s.newSession({
      hooks: {
        PreToolUse: [{ matcher: "Write", hookCallbackIds: ["gate"], timeout: 5 }],
        PostToolUse: [{ hookCallbackIds: ["watch"] }],
        UserPromptSubmit: [{ hookCallbackIds: ["prompt"], blocking: true }],
        FutureEvent: [{ hookCallbackIds: ["later"] }],
      },
    });
    const file = join(s.cwd, "out.txt");
    await s.prompt(opened.sessionId, toolLine("Write", { file_path: file, content: "hi\n" }));

    const fromAgent = s.h.framesFrom("agent").map((f) => f.message);
    const fromClient = s.h.framesFrom("client").map((f) => f.message);
    const results = fromAgent.flatMap((m) =>
      "result" in m && isRecord(m.result) ? [m.result] : [],
    );
    const params = (messages: AnyMessage[], method: string) =>
      messages.flatMap((m) => ("method" in m && m.method === method ? [m.params] : []));

    const capability = results.flatMap((r) =>
      isRecord(r.agentCapabilities) ? [r.agentCapabilities._meta] : [],
    );
    const openedMeta = results.flatMap((r) => ("sessionId" in r ? [r._meta] : []));
    const runs = params(fromAgent, "_hooks/run");
    const events = params(fromAgent, "_hooks/event");
    const runIds = new Set(fromAgent.flatMap((m) => ("method" in m && "id" in m ? [m.id] : [])));
    const replies = fromClient.flatMap((m) =>
      !("method" in m) && "result" in m && runIds.has(m.id) ? [m.result] : [],
    );
    const updateMeta = params(fromAgent, "session/update").flatMap((p) =>
      isRecord(p) && isRecord(p.update) && isRecord(p.update._meta) && "hooks" in p.update._meta
        ? [p.update._meta]
        : [],
    );
    const inputOf = (p: unknown) => (isRecord(p) && isRecord(p.input) ? p.input : {});

    expect(capability).toHaveLength(1);
    expect(openedMeta).toHaveLength(1);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(replies.length).toBeGreaterThanOrEqual(2);
    expect(updateMeta.some((m) => "hooksGateMs" in m)).toBe(true);
    expect(updateMeta.some((m) => !("hooksGateMs" in m))).toBe(true);

    const checked: [string, unknown][] = [
      ...capability.map((v) => ["CapabilityMeta", v] as [string, unknown]),
      ...openedMeta.map((v) => ["SessionOpenedMeta", v] as [string, unknown]),
      ...runs.flatMap((v): [string, unknown][] => [
        ["HookRunParams", v],
        [`${String(inputOf(v).hook_event_name)}Input`, inputOf(v)],
      ]),
      ...events.flatMap((v): [string, unknown][] => [
        ["HookEventParams", v],
        [`${String(inputOf(v).hook_event_name)}Input`, inputOf(v)],
      ]),
      ...replies.flatMap((v): [string, unknown][] => [
        ["HookRunResult", v],
        ["KnownHookReply", v],
      ]),
      ...updateMeta.map((v) => ["UpdateHooksMeta", v] as [string, unknown]),
    ];
    const found = checked.flatMap(([def, value]) =>
      problems(def, value).map((p) => `${def}: ${p} in ${JSON.stringify(value)}`),
    );
    expect(found).toEqual([]);
  });
});
