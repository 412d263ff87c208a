// List sessions: the agent's persisted sessions in this directory, each told apart by its
// title, start time and its count of calls and denies, with a button that loads it.
import { $, el, post } from "./dom.js";

const when = (iso) => new Date(iso).toLocaleString([], { hour12: false });

function describe(session) {
  const started = session.createdAt ? `started ${when(session.createdAt)}` : undefined;
  const calls =
    session.toolCalls === undefined
      ? "calls not counted"
      : `${session.toolCalls} ${session.toolCalls === 1 ? "call" : "calls"}, ${session.deniedCalls ?? 0} denied`;
  const changed = session.updatedAt ? `last change ${when(session.updatedAt)}` : undefined;
  return [session.title ?? "untitled", started, calls, changed, session.sessionId]
    .filter(Boolean)
    .join(" · ");
}

/** Asks the agent (`session/list`) and shows what it keeps; Load switches the page to it. */
export async function listSessions() {
  const result = await post({ type: "listSessions" });
  const list = $("sessions");
  list.replaceChildren();
  for (const session of result?.sessions ?? []) {
    const load = () => void post({ type: "loadSession", sessionId: session.sessionId });
    list.append(
      el(
        "li",
        {},
        `${describe(session)} `,
        el(
          "button",
          { type: "button", "aria-label": `Load session ${session.sessionId}`, onclick: load },
          "Load",
        ),
      ),
    );
  }
  if (list.children.length === 0) list.append(el("li", {}, "no sessions"));
}
