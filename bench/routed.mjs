// The benchmark's second client: hookgate's own `hookgate/client` (HookRouter + spawnHookgate),
// whose hook frames take the fast path instead of the SDK's generic dispatch.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { client, methods } from "@agentclientprotocol/sdk";
import { HookRouter, spawnHookgate } from "../dist/client/index.js";
import { processStats } from "./client.mjs";

/**
 * Spawns `entry` with a HookRouter-based client; `hooksFor(n)` registers n instant callbacks.
 * spawnHookgate takes no node flags, so this agent is never run under --profile.
 */
export function connectRouted(entry, { onUpdate = () => {}, onEvent = () => {} } = {}) {
  const router = new HookRouter({ onError: (error) => process.emitWarning(String(error)) });
  const app = router.install(
    client({ name: "hookgate-bench-router" }).onNotification(
      methods.client.session.update,
      ({ params }) => onUpdate(params),
    ),
  );
  const stateHome = mkdtempSync(join(tmpdir(), "hookgate-bench-state-"));
  const proc = spawnHookgate(app, {
    agentPath: entry,
    args: [],
    env: { XDG_STATE_HOME: stateHome },
  });
  const registrations = [];
  return {
    agent: proc.connection.agent,
    pid: proc.child.pid,
    stderr: () => proc.stderr(),
    ...processStats(proc.child.pid),
    /** `_meta.hooks` for n PreToolUse callbacks that continue at once. */
    hooksFor(n) {
      // A group holds at most 64 callbacks on the wire.
      const groups = [];
      for (let i = 0; i < n; i += 64) {
        groups.push({ hooks: Array.from({ length: Math.min(64, n - i) }, () => () => ({})) });
      }
      const registration = router.register({ PreToolUse: groups });
      registrations.push(registration);
      return registration.hooks;
    },
    /** `_meta.hooks` for k PostToolUse observers, each telling `onEvent` what it saw. */
    observersFor(k) {
      const observe = (input, toolUseId, { sessionId }) =>
        void onEvent({ sessionId }, performance.now());
      const registration = router.register({
        PostToolUse: [{ hooks: Array.from({ length: k }, () => observe) }],
      });
      registrations.push(registration);
      return registration.hooks;
    },
    async close() {
      for (const r of registrations.splice(0)) r.dispose();
      await proc.close();
      rmSync(stateHome, { recursive: true, force: true });
    },
  };
}
