import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  noticeWhilePending,
  PERMISSION_NOTICE_DELAY_MS,
} from "../../src/session/permission-notice.js";

type Emitted = { event: string; fields: unknown };

function hooks() {
  const emitted: Emitted[] = [];
  return {
    emitted,
    emit: (event: string, fields: () => unknown) => {
      emitted.push({ event, fields: fields() });
    },
  };
}

describe("Notification for a permission request still open", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("fires after Claude Code's 6 s with its type and message, the type being what matchers select on", () => {
    const h = hooks();
    noticeWhilePending(h, "Bash");
    vi.advanceTimersByTime(PERMISSION_NOTICE_DELAY_MS - 1);
    expect(h.emitted).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(PERMISSION_NOTICE_DELAY_MS).toBe(6000);
    expect(h.emitted).toEqual([
      {
        event: "Notification",
        fields: {
          message: "hookgate needs your permission to use Bash",
          notification_type: "permission_prompt",
        },
      },
    ]);
  });

  it("does not fire once the user has answered", () => {
    const h = hooks();
    const answered = noticeWhilePending(h, "Write");
    vi.advanceTimersByTime(1000);
    answered();
    vi.advanceTimersByTime(PERMISSION_NOTICE_DELAY_MS * 2);
    expect(h.emitted).toEqual([]);
  });
});
