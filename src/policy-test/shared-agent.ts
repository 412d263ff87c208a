import { client, methods, type AnyMessage } from "@agentclientprotocol/sdk";
import { spawnHookgate, type AgentProcess } from "../client/agent-process.js";
import { readModelContext } from "../client/kit/model-context.js";
import {
  agentText,
  answerPermission,
  recordingOf,
  runSession,
  type PermissionAnswer,
  type SessionRunOptions,
} from "../client/kit/session-run.js";
import type { Timeline } from "../client/kit/spawn-agent.js";
import { TimelineRecorder } from "../client/kit/timeline.js";
import { removeTempDir, tempDir } from "../client/kit/workspace.js";
import { HookRouter } from "../client/router.js";
import { isRecord } from "../shared/values.js";

/** One case's session: what it answers to permission requests, and what it saw. */
export interface CaseSession extends Omit<SessionRunOptions, "onOpened"> {
  readonly permission: PermissionAnswer;
  /** Bound on the session, in ms: past it the session is cancelled and closed. */
  readonly timeoutMs: number;
}

/** The agent process ended while a case's session was running in it. */
export class AgentExitedError extends Error {
  override readonly name = "AgentExitedError";
}

/** What the agent sends about one session, recorded apart from every other session's. */
interface Tap {
  readonly recorder: TimelineRecorder;
  permission: PermissionAnswer;
}

/**
 * One `hookgate` process (offline, the scripted model) whose sessions are the cases that
 * share its arguments. Each case has a session of its own, in its own workspace, and sees
 * only its session's messages: the router labels each registration's callback ids, and every
 * frame is routed by its `sessionId`. Starting the process once is what makes a case cost a
 * session (milliseconds) rather than a process start.
 */
export class SharedAgent {
  private readonly taps = new Map<string, Tap>();
  private readonly finished = new Set<string>();
  /** Client request id -> the session it is about, so a response reaches its recorder. */
  private readonly requestSessions = new Map<string | number, string>();
  private readonly router: HookRouter;
  private readonly process: AgentProcess;
  private readonly home = tempDir("hookgate-test-agent-");
  private readonly dataDir = tempDir("hookgate-data-");
  private readonly ready: Promise<unknown>;
  private exitCode: number | null | undefined;
  private exitSignal: NodeJS.Signals | null = null;
  /** Settles (never rejects) when the agent process has exited. */
  readonly exited: Promise<void>;

  constructor(args: readonly string[], agentPath?: string) {
    this.router = new HookRouter({
      trace: (trace) => this.tap(trace.sessionId)?.recorder.trace(trace),
      onError: (error, info) =>
        info.sessionId === undefined
          ? undefined
          : this.tap(info.sessionId)?.recorder.error(error, info),
    });
    const app = this.router.install(
      client({ name: "hookgate-test" })
        .onNotification(methods.client.session.update, ({ params }) =>
          this.tap(params.sessionId)?.recorder.update(params.update),
        )
        .onRequest(
          methods.client.session.requestPermission,
          async ({ params, signal, requestId }) => {
            const tap = this.tap(params.sessionId);
            const response = await answerPermission(tap?.permission ?? "reject", params, signal);
            tap?.recorder.permission(requestId, params, response);
            return response;
          },
        ),
    );
    this.process = spawnHookgate(app, {
      // The agent runs in a directory of its own; each session names its case's workspace.
      cwd: this.home,
      ...(agentPath !== undefined && { agentPath }),
      args: [
        ...["--model", "scripted", "--log-level", "warn"],
        ...args,
        ...["--data-dir", this.dataDir],
      ],
      onMessage: (direction, message) => this.route(direction, message),
    });
    this.exited = new Promise((resolve) =>
      this.process.child.once("exit", (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      }),
    );
    this.ready = this.process.connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
  }

  /** The process has exited: a case sent to it now would fail for no fault of its own. */
  get dead(): boolean {
    return this.exitCode !== undefined;
  }

  /** Runs one case's session and returns what its client saw. */
  async run(session: CaseSession): Promise<Timeline> {
    let sessionId: string | undefined;
    const opened = (id: string) => {
      sessionId = id;
      const tap = this.tap(id);
      if (tap) tap.permission = session.permission;
    };
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the case did not finish within ${session.timeoutMs} ms`)),
        session.timeoutMs,
      );
    });
    const exited = this.exited.then(() => {
      throw this.exitError();
    });
    try {
      const agent = this.process.connection.agent;
      const ran = await Promise.race([
        this.ready.then(() => runSession(agent, this.router, { ...session, onOpened: opened })),
        deadline,
        exited,
      ]);
      const tap = this.tap(ran.sessionId);
      const recorder = tap?.recorder ?? new TimelineRecorder();
      recorder.stop(ran.stopReason);
      return {
        ...ran,
        cwd: session.cwd,
        modelContext: await readModelContext(this.dataDir, ran.sessionId),
        agentText: agentText(recorder),
        stderr: this.process.stderr(),
        exitCode: null,
        ...recordingOf(recorder),
      };
    } catch (error) {
      // A request fails as the connection closes, a moment before the process is seen to exit.
      if (!(error instanceof AgentExitedError) && this.process.child.stdout?.readableEnded) {
        await Promise.race([exited, deadline]).catch((late: unknown) => {
          if (late instanceof AgentExitedError) throw late;
        });
      }
      // A session that overran is cancelled and closed, so it cannot act on a later case.
      if (sessionId !== undefined && !this.dead) this.abandon(sessionId);
      throw error;
    } finally {
      clearTimeout(timer);
      if (sessionId !== undefined) {
        this.taps.delete(sessionId);
        this.finished.add(sessionId);
      }
    }
  }

  /** Ends the process (closing stdin; its group is killed if it lingers) and its directories. */
  async close(): Promise<void> {
    await this.process.close();
    removeTempDir(this.dataDir);
    removeTempDir(this.home);
  }

  private exitError(): AgentExitedError {
    const said = this.process.stderr().trim().split("\n").at(-1);
    const how = this.exitSignal ?? `code ${this.exitCode}`;
    return new AgentExitedError(`the agent exited with ${how}${said ? `: ${said}` : ""}`);
  }

  private abandon(sessionId: string): void {
    const agent = this.process.connection.agent;
    const closed = agent
      .notify(methods.agent.session.cancel, { sessionId })
      .then(() => agent.request(methods.agent.session.close, { sessionId }));
    closed.catch(() => undefined);
  }

  /** The recorder of a session, made on its first message (which may beat `session/new`'s answer). */
  private tap(sessionId: string): Tap | undefined {
    if (this.finished.has(sessionId)) return undefined;
    let tap = this.taps.get(sessionId);
    if (!tap)
      this.taps.set(sessionId, (tap = { recorder: new TimelineRecorder(), permission: "reject" }));
    return tap;
  }

  private route(direction: "incoming" | "outgoing", message: AnyMessage): void {
    const params = "params" in message && isRecord(message.params) ? message.params : undefined;
    let sessionId = typeof params?.sessionId === "string" ? params.sessionId : undefined;
    const id = "id" in message ? message.id : undefined;
    if (direction === "outgoing") {
      if (sessionId !== undefined && "method" in message && id !== undefined && id !== null) {
        this.requestSessions.set(id, sessionId);
      }
    } else if (!("method" in message) && id !== undefined && id !== null) {
      sessionId = this.requestSessions.get(id);
      this.requestSessions.delete(id);
    }
    if (sessionId === undefined) return;
    const recorder = this.tap(sessionId)?.recorder;
    if (direction === "incoming") recorder?.incoming(message);
    else recorder?.outgoing(message);
  }
}
