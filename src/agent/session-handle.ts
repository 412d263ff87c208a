import type { SessionHandle, SessionSummary } from "../protocol/host.js";
import { SessionBusyError, SessionClosedError, type SessionActor } from "../session/actor.js";
import { isModeId } from "../session/modes.js";
import { MODEL_CONFIG_ID } from "../session/model-switch.js";
import { ModelTurnError } from "../session/turn-env.js";
import type { SessionMeta } from "../store/metadata.js";

/** The session actor as the ACP app drives it: refusals as results, not exceptions. */
export function handleOf(actor: SessionActor): SessionHandle {
  return {
    id: actor.id,
    async prompt(prompt) {
      try {
        return { stopReason: await actor.prompt(prompt) };
      } catch (error) {
        if (error instanceof SessionBusyError) return { refused: "busy" };
        if (error instanceof SessionClosedError) return { refused: "closed" };
        if (error instanceof ModelTurnError) return { modelFailed: error.message };
        throw error;
      }
    },
    cancel: () => actor.cancel(),
    async setMode(modeId) {
      if (!isModeId(modeId)) return false;
      await actor.setMode(modeId);
      return true;
    },
    modes: () => actor.modes(),
    configOptions: () => actor.configOptions(),
    async setConfigOption(configId, value) {
      const options = actor.configOptions();
      if (configId !== MODEL_CONFIG_ID)
        return { unknown: "configId", known: options.map((o) => o.id) };
      const outcome = await actor.setModel(value);
      if ("unknown" in outcome) {
        const model = options.find((o) => o.id === MODEL_CONFIG_ID);
        const known =
          model?.type === "select"
            ? model.options.flatMap((o) => ("value" in o ? [o.value] : []))
            : [];
        return { unknown: "value", known };
      }
      if ("refused" in outcome) return outcome;
      return { set: true, reports: outcome.reports };
    },
  };
}

/** A live session's record, as it is (or will be) persisted. */
export function metaOf(actor: SessionActor): SessionMeta {
  const now = actor.snapshot();
  return {
    version: 1,
    sessionId: now.id,
    cwd: now.cwd,
    additionalDirectories: now.roots.slice(1),
    title: now.title ?? null,
    mode: now.mode,
    createdAt: now.createdAt.toISOString(),
    updatedAt: now.updatedAt.toISOString(),
    ...now.tally,
  };
}

/** A record as `session/list` shows it. */
export function summaryOf(meta: SessionMeta): SessionSummary {
  return {
    id: meta.sessionId,
    cwd: meta.cwd,
    additionalDirectories: meta.additionalDirectories,
    title: meta.title,
    updatedAt: meta.updatedAt,
    createdAt: meta.createdAt,
    ...(meta.toolCalls !== undefined && { toolCalls: meta.toolCalls }),
    ...(meta.deniedCalls !== undefined && { deniedCalls: meta.deniedCalls }),
  };
}
