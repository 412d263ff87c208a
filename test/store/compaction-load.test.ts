import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summaryMessage } from "../../src/model/compact-prompt.js";
import { Transcript } from "../../src/session/transcript.js";
import { silentLogger } from "../../src/shared/log.js";
import { readTranscript } from "../../src/store/transcript-reader.js";

describe("a transcript with a compaction, read back", () => {
  it("keeps every line, and gives the model only the summary and what followed the last boundary", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "hookgate-compact-load-")), "s1.jsonl");
    const t = new Transcript(path, { sessionId: "s1", cwd: "/w" }, silentLogger());
    await t.record([
      { role: "user", content: "first" },
      { role: "assistant", content: "You said: first" },
    ]);
    await t.recordCompaction("manual", 2, summaryMessage("SUMMARY-1"));
    await t.record([{ role: "user", content: "second" }]);
    await t.flush();

    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["user", "assistant", "system", "user", "user"]);
    expect(lines[2]).toMatchObject({
      subtype: "compact_boundary",
      parentUuid: null,
      logicalParentUuid: lines[1].uuid,
      compactMetadata: { trigger: "manual", messagesSummarized: 2 },
    });
    expect(lines[3]).toMatchObject({ isCompactSummary: true, parentUuid: lines[2].uuid });

    const { history } = await readTranscript(path, silentLogger());
    expect(history).toHaveLength(2);
    expect(JSON.stringify(history[0])).toContain("SUMMARY-1");
    expect(history[1]).toEqual({ role: "user", content: "second" });
  });
});
