// What the inspector's browser tests share: starting `hookgate inspect`, Chromium, the page's
// controls by role and name, and the process table.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { request } from "node:http";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from "playwright-core";
import { afterAll, beforeAll, inject, onTestFinished } from "vitest";
import { makeWorkspace } from "../../src/client/kit/index.js";
import { hookgateBinary } from "../../src/client/index.js";
import { startInspector } from "../../src/inspect/server.js";

export const GATE_ID = "page1/PreToolUse:0:0:browser";
/** The page's own observer on an event: asked and awaited, so the agent reports it. */
export const OBSERVER = (event: string) => `page1/${event}:0:0:observe`;

export interface Running {
  readonly child: ChildProcess;
  /** The address `hookgate inspect` printed. */
  readonly url: string;
  readonly cwd: string;
  /** What it wrote to stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once it exited. */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface InspectOptions {
  /** Flags of `hookgate inspect` itself (default `--no-open`). */
  readonly own?: readonly string[];
  /** Flags for the agent behind it. */
  readonly agent?: readonly string[];
  /** Its stdin: a pipe the test holds (the default), or `/dev/null` ("ignore"). */
  readonly stdin?: "pipe" | "ignore";
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts `hookgate inspect` in a fresh workspace (or `cwd`) and reads the printed address. */
export async function inspect(
  files: Record<string, string> | { readonly cwd: string },
  { own = ["--no-open"], agent = [], stdin = "pipe", env }: InspectOptions = {},
): Promise<Running> {
  const cwd = typeof files.cwd === "string" ? files.cwd : makeWorkspace(files);
  const child = spawn(
    process.execPath,
    [hookgateBinary(), "inspect", ...own, "--", "--log-level", "error", ...agent],
    { cwd, stdio: [stdin, "pipe", "pipe"], env: env ?? process.env },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const line = /^hookgate inspect: (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(out);
      if (line?.[1]) resolve(line[1]);
    });
    child.once("exit", (code) => reject(new Error(`inspect exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    url,
    cwd,
    exited,
    stdout: () => out,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface Here {
  /** A link that opens the page (one use, as the printed one). */
  readonly url: string;
  /** Another such link, for another tab or test. */
  link(): string;
  readonly cwd: string;
  /** Posts an action to the page's `/api` as a signed-in page does; rejects unless it is 200. */
  act(action: object): Promise<unknown>;
  /** What the inspector reported (the CLI's stderr). */
  warnings(): readonly string[];
  stop(): Promise<void>;
}

export interface HereOptions {
  /** Flags for the agent behind it. */
  readonly agent?: readonly string[];
  /** `--gate-timeout` (default 60). */
  readonly gateTimeout?: number;
  /** Variables added to the agent's environment. */
  readonly agentEnv?: Readonly<Record<string, string>>;
}

/**
 * Starts the inspector in this process, as `hookgate inspect --no-open` does (`startInspector`),
 * its agent a child process as there: for the tests about the page, which need no inspector
 * process of their own (~0.8 s of CPU a start). The tests of the command itself (its flags,
 * output, signals, stdin, processes) and one page test end to end use {@link inspect}.
 */
export async function inspectHere(
  files: Record<string, string> | { readonly cwd: string },
  { agent = [], gateTimeout = 60, agentEnv }: HereOptions = {},
): Promise<Here> {
  const cwd = typeof files.cwd === "string" ? files.cwd : makeWorkspace(files);
  const warnings: string[] = [];
  const inspector = await startInspector({
    host: "127.0.0.1",
    port: 0,
    gateTimeout,
    agentArgs: ["--log-level", "error", ...agent],
    cwd,
    warn: (message) => warnings.push(message),
    ...(agentEnv && { agentEnv }),
  });
  let cookie: Promise<string> | undefined;
  return {
    url: inspector.link(),
    link: () => inspector.link(),
    cwd,
    async act(action) {
      cookie ??= raw(inspector.link()).then(
        (entered) => String(entered.headers["set-cookie"] ?? "").split(";")[0] ?? "",
      );
      const { origin } = new URL(inspector.link());
      const answer = await raw(`${origin}/api`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, cookie: await cookie },
        body: JSON.stringify(action),
      });
      if (answer.status !== 200) throw new Error(`${answer.status} ${answer.body}`);
      return JSON.parse(answer.body) as unknown;
    },
    warnings: () => warnings,
    stop: () => inspector.close(),
  };
}

/**
 * One in-process inspector (and its agent) for the tests of a `describe` that need nothing of
 * their own but a session: started before them (then `setup`, e.g. the rules they share) and
 * stopped after them. Each test opens its own tab with a fresh {@link Here.link} and starts its
 * session there with {@link newSession}.
 */
export function sharedInspector(
  files: Record<string, string>,
  options: HereOptions = {},
  setup?: (here: Here) => Promise<unknown>,
): () => Here {
  let here: Here | undefined;
  beforeAll(async () => {
    here = await inspectHere(files, options);
    await setup?.(here);
  });
  afterAll(async () => {
    await here?.stop();
  });
  return () => {
    if (!here) throw new Error("the shared inspector did not start");
    return here;
  };
}

/**
 * Starts a new session from the page and waits until the page shows it; returns its view. A tab
 * of a shared inspector is sent the earlier tests' sessions too: their views are hidden (roles
 * skip them) but still hold text, so a test finds text in its own view.
 */
export async function newSession(page: Page): Promise<Locator> {
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => r.url().endsWith("/api") && /newSession/.test(r.request().postData() ?? ""),
    ),
    page.getByRole("button", { name: "New session" }).click(),
  ]);
  const { sessionId } = (await answer.json()) as { sessionId: string };
  await page.locator("#current").filter({ hasText: sessionId }).waitFor();
  return page.getByRole("region", { name: `New session ${sessionId}` });
}

/**
 * The run's Chromium (launched once, in vitest's main process: chromium-server.ts), connected
 * to on first use by each worker and kept until the worker ends.
 */
let connected: Promise<Browser> | undefined;

function sharedChromium(): Promise<Browser> {
  if (connected) return connected;
  // A connection that drops or fails is forgotten, so the next file connects again.
  const mine: Promise<Browser> = connectChromium().then(
    (browser) => {
      browser.once("disconnected", () => {
        if (connected === mine) connected = undefined;
      });
      return browser;
    },
    (error: unknown) => {
      if (connected === mine) connected = undefined;
      throw error;
    },
  );
  connected = mine;
  return mine;
}

async function connectChromium(): Promise<Browser> {
  const answer = await raw(inject("chromiumBroker"));
  if (answer.status !== 200) throw new Error(`Chromium did not start: ${answer.body}`);
  return chromium.connect(answer.body);
}

/**
 * How one file's tests open the page: in one browser context of the run's Chromium (its own
 * cookies and storage, closed after the file; each inspector's cookie is named for its port, so
 * the file's inspectors do not share one), a context costing ~0.4 s of CPU to make, and in one
 * tab of it: each link opened, by any test of the file, loads in that tab, as a load in a tab
 * that is already there costs about half the CPU of a new tab's (its renderer process stays).
 * A test that needs a second tab at once opens it with {@link openAgain}. Call it in the
 * file's `describe`.
 */
export function browserPages(): (url: string) => Promise<Page> {
  let context: Promise<BrowserContext> | undefined;
  let tab: Page | undefined;
  afterAll(async () => {
    await (await context?.catch(() => undefined))?.close();
  });
  return async (url) => {
    context ??= sharedChromium().then((browser) =>
      browser.newContext({ viewport: { width: 1200, height: 900 } }),
    );
    if (!tab || tab.isClosed()) tab = await (await context).newPage();
    return load(tab, url);
  };
}

/** Opens the link in the tab and waits for the live channel. */
async function load(page: Page, url: string): Promise<Page> {
  // Generous: a shared machine may be slow; every wait below is for a condition.
  page.setDefaultTimeout(60_000);
  await page.goto(url);
  await page.getByRole("status").getByText("connected").waitFor();
  return page;
}

/** Another tab of the browser `page` is in, closed when the test ends: signed in by the cookie. */
export async function openAgain(page: Page): Promise<Page> {
  const tab = await page.context().newPage();
  onTestFinished(() => tab.close());
  return load(tab, new URL(page.url()).origin);
}

export async function addRule(page: Page, matcher: string, contains: string): Promise<void> {
  await page.getByRole("combobox", { name: "Event" }).selectOption("PreToolUse");
  await page.getByRole("textbox", { name: "Matcher" }).fill(matcher);
  await page.getByRole("textbox", { name: "Input contains" }).fill(contains);
  await page.getByRole("button", { name: "Add rule" }).click();
  await page.getByRole("list", { name: "Rules" }).getByText(matcher).waitFor();
}

export async function send(page: Page, prompt: string): Promise<void> {
  await page.getByRole("textbox", { name: "Prompt" }).fill(prompt);
  await page.getByRole("button", { name: "Send" }).click();
}

/** The pids whose parent is `pid` (Linux /proc). */
export function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

export function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** Running, not a zombie waiting for its parent. */
export function alive(pid: number): boolean {
  try {
    if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return false;
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface RawResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** A raw HTTP request, so that Host, Origin and Cookie can be forged. */
export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
