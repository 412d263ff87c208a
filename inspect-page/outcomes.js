// What each outcome label means (docs/protocol.md's table, in a sentence each), for the detail
// pane: a label alone says what happened, not why it matters.

const MEANING = {
  proceeded:
    "The hook answered continue, allow or ask (or {} / null): it let the call go on; ask > allow > continue decides among them.",
  denied: "The hook answered deny: the call was blocked at once and never ran.",
  timed_out:
    'No answer within the group\'s timeout: fails open (counts as continue) unless the group says onFailure: "deny", which blocks.',
  transport_error:
    'A JSON-RPC error reply (-32601 when the client has no handler) or a closed connection: fails open unless the group says onFailure: "deny".',
  malformed:
    'The reply does not fit the schema, or its updatedInput does not fit the tool: fails open unless the group says onFailure: "deny"; a deny the reply states still blocks.',
  unknown_decision:
    'A decision string this version does not know: fails open unless the group says onFailure: "deny".',
  hook_error:
    "A command hook that could not start, or exited with a code other than 0 and 2 without valid JSON: fails open unless its group fails closed.",
  cancelled:
    "Not answered when the gate decided: the turn was cancelled, or another hook's deny decided first.",
};

/** The label's meaning, in one sentence. */
export const meaning = (label) => MEANING[label] ?? "A label this page does not know.";
