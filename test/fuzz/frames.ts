/** A seeded source of hostile frames, each with the answer the agent owes it. */

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the agent must send back for a frame. */
export type Expect =
  /** A response with this frame's id: a result, or an error with this code. */
  | { kind: "reply"; id: number; method: string; code: number | "result" }
  /** An error response with id null (the frame's id could not be trusted). */
  | { kind: "null-reply"; code: number }
  /** Nothing (a notification, or a response to a request the agent never sent). */
  | { kind: "none" };

/** One line to write, and what it is owed. */
export interface FuzzFrame {
  readonly name: string;
  readonly bytes: string | Uint8Array;
  readonly expect: Expect;
}

/** The agent under fuzz runs with this frame limit, so oversize frames stay cheap to send. */
export const FUZZ_MAX_FRAME_BYTES = 65_536;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const SESSION_NOT_FOUND = -32002;

/** The parts of a run a frame may refer to. */
export interface FuzzState {
  nextId(): number;
  /** A session that exists, for requests that need one. */
  readonly sessionId: string;
  readonly cwd: string;
}

type Maker = (rand: () => number, s: FuzzState) => FuzzFrame;

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
const pick = <T>(rand: () => number, items: readonly T[]): T =>
  items[Math.floor(rand() * items.length)] as T;
const junk = (rand: () => number, length: number): string =>
  Array.from({ length }, () => String.fromCharCode(Math.floor(rand() * 0x3000))).join("");
const nested = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** Hostile and valid frames, weighted by how often they are drawn. */
const MAKERS: readonly [number, Maker][] = [
  [
    6,
    (rand) => ({
      name: "garbage text",
      bytes: `${junk(rand, 1 + Math.floor(rand() * 60)).replace(/\n/g, " ")}{\n`,
      expect: { kind: "null-reply", code: PARSE_ERROR },
    }),
  ],
  [
    4,
    (rand, s) => {
      const text = line({ jsonrpc: "2.0", id: s.nextId(), method: "session/new", params: {} });
      return {
        name: "truncated JSON",
        bytes: `${text.slice(0, 1 + Math.floor(rand() * (text.length - 3)))}\n`,
        expect: { kind: "null-reply", code: PARSE_ERROR },
      };
    },
  ],
  [
    3,
    () => ({
      name: "invalid UTF-8",
      bytes: new Uint8Array([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x0a]),
      expect: { kind: "null-reply", code: PARSE_ERROR },
    }),
  ],
  [
    3,
    (rand) => ({
      name: "batch",
      bytes: line([{ jsonrpc: "2.0", id: 1, method: "initialize" }, rand()]),
      expect: { kind: "null-reply", code: INVALID_REQUEST },
    }),
  ],
  [
    3,
    (rand) => ({
      name: "scalar",
      bytes: line(pick(rand, [null, 7, "text", true, -1.5])),
      expect: { kind: "null-reply", code: INVALID_REQUEST },
    }),
  ],
  [
    4,
    (rand, s) => ({
      name: "deep nesting, wrong version",
      bytes: `{"jsonrpc":"1.0","id":${s.nextId()},"method":"foo","x":${nested(1000 + Math.floor(rand() * 9000))}}\n`,
      expect: { kind: "null-reply", code: INVALID_REQUEST },
    }),
  ],
  [
    3,
    (rand) => ({
      name: "bad id type",
      bytes: line({ jsonrpc: "2.0", id: pick(rand, [{}, [1], true]), method: "initialize" }),
      expect: { kind: "null-reply", code: INVALID_REQUEST },
    }),
  ],
  [
    5,
    (rand, s) => {
      const id = s.nextId();
      return {
        name: "unknown method",
        bytes: line({ jsonrpc: "2.0", id, method: `x/${junk(rand, 4)}`, params: { a: rand() } }),
        expect: { kind: "reply", id, method: "x/unknown", code: METHOD_NOT_FOUND },
      };
    },
  ],
  [
    3,
    (rand, s) => {
      const id = s.nextId();
      return {
        name: "deep params to an unknown method",
        bytes: `{"jsonrpc":"2.0","id":${id},"method":"x/deep","params":{"p":${nested(3000 + Math.floor(rand() * 5000))}}}\n`,
        expect: { kind: "reply", id, method: "x/deep", code: METHOD_NOT_FOUND },
      };
    },
  ],
  [
    4,
    (rand, s) => ({
      name: "response to a request never sent",
      bytes: line({ jsonrpc: "2.0", id: 1_000_000 + s.nextId(), result: { x: rand() } }),
      expect: { kind: "none" },
    }),
  ],
  [
    3,
    (rand) => ({
      name: "notification with junk params",
      bytes: line({
        jsonrpc: "2.0",
        method: pick(rand, ["session/cancel", "x/y"]),
        params: [rand()],
      }),
      expect: { kind: "none" },
    }),
  ],
  [
    4,
    (rand, s) => {
      const id = s.nextId();
      const params = pick(rand, [
        { cwd: "relative/dir", mcpServers: [] },
        { cwd: 7 },
        {
          cwd: s.cwd,
          mcpServers: [],
          _meta: { hooks: { PreToolUse: [{ matcher: "(", hookCallbackIds: ["a"] }] } },
        },
        { cwd: s.cwd, mcpServers: [], _meta: { hooks: { PreToolUse: [{ hookCallbackIds: [] }] } } },
      ]);
      return {
        name: "session/new with bad params",
        bytes: line({ jsonrpc: "2.0", id, method: "session/new", params }),
        expect: { kind: "reply", id, method: "session/new", code: INVALID_PARAMS },
      };
    },
  ],
  [
    4,
    (rand, s) => {
      const id = s.nextId();
      return {
        name: "prompt to an unknown session",
        bytes: line({
          jsonrpc: "2.0",
          id,
          method: "session/prompt",
          params: {
            sessionId: `nope-${Math.floor(rand() * 1e6)}`,
            prompt: [{ type: "text", text: "hi" }],
          },
        }),
        expect: { kind: "reply", id, method: "session/prompt", code: SESSION_NOT_FOUND },
      };
    },
  ],
  [
    3,
    (rand, s) => {
      const id = s.nextId();
      return {
        name: "prompt with bad content",
        bytes: line({
          jsonrpc: "2.0",
          id,
          method: "session/prompt",
          params: { sessionId: s.sessionId, prompt: pick(rand, ["text", [{ type: "nope" }], 5]) },
        }),
        expect: { kind: "reply", id, method: "session/prompt", code: INVALID_PARAMS },
      };
    },
  ],
  [
    4,
    (_rand, s) => {
      const id = s.nextId();
      return {
        name: "valid session/new",
        bytes: line({
          jsonrpc: "2.0",
          id,
          method: "session/new",
          params: { cwd: s.cwd, mcpServers: [] },
        }),
        expect: { kind: "reply", id, method: "session/new", code: "result" },
      };
    },
  ],
  [
    3,
    (_rand, s) => {
      const id = s.nextId();
      return {
        name: "valid session/list",
        bytes: line({ jsonrpc: "2.0", id, method: "session/list", params: {} }),
        expect: { kind: "reply", id, method: "session/list", code: "result" },
      };
    },
  ],
  [
    2,
    (rand, s) => {
      const id = s.nextId();
      const pad = "p".repeat(FUZZ_MAX_FRAME_BYTES + Math.floor(rand() * 4096));
      return {
        name: "oversize request",
        bytes: line({ jsonrpc: "2.0", id, method: "session/new", params: { cwd: pad } }),
        expect: { kind: "reply", id, method: "session/new", code: INVALID_REQUEST },
      };
    },
  ],
  [
    2,
    () => ({
      name: "blank lines and CRLF",
      bytes: "\n\r\n   \n",
      expect: { kind: "none" },
    }),
  ],
];

const TOTAL_WEIGHT = MAKERS.reduce((sum, [weight]) => sum + weight, 0);

/** Draws the next frame. */
export function nextFrame(rand: () => number, state: FuzzState): FuzzFrame {
  let roll = rand() * TOTAL_WEIGHT;
  for (const [weight, make] of MAKERS) {
    roll -= weight;
    if (roll < 0) return make(rand, state);
  }
  const last = MAKERS[MAKERS.length - 1];
  if (!last) throw new Error("no frame makers");
  return last[1](rand, state);
}
