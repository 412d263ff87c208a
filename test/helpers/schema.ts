import type { JsonRpcId } from "@agentclientprotocol/sdk";
import {
  defValidator,
  describeErrors,
  isRecord,
  methodDef,
  type MessageKind,
  type Side,
} from "./acp-schema.js";

export { defValidator, methodDef, methodDefs, type MessageKind, type Side } from "./acp-schema.js";

/** Checks an extension method's params (or result); returns a problem description, or undefined. */
export type ExtensionValidator = (value: unknown) => string | undefined;

/**
 * Validators for `_`-prefixed extension methods, which the ACP schema does not cover. Keyed by
 * method name for params; by {@link resultKey}(method) for the result of a client request.
 */
export type ExtensionValidators = Readonly<Record<string, ExtensionValidator>>;

const registered: Record<string, ExtensionValidator> = {};

/** Adds (or replaces) extension validators for every harness in this test file. */
export function setExtensionValidators(validators: ExtensionValidators): void {
  Object.assign(registered, validators);
}

/** The extension validators registered so far. */
export function registeredExtensionValidators(): ExtensionValidators {
  return { ...registered };
}

/** The key of the validator for the result of an extension request the client sent. */
export function resultKey(method: string): string {
  return `${method}#result`;
}

const errorValidator = defValidator("Error");

/**
 * Validates one message SENT BY THE AGENT against the ACP schema, per method: requests and
 * notifications against the client-side def for their method, responses against the agent-side
 * response def of the client request they answer (`pendingMethodById`: client request id ->
 * method). Extension methods need a registered validator. Returns problems; empty means valid.
 */
export function validateAgentMessage(
  message: unknown,
  pendingMethodById: ReadonlyMap<JsonRpcId, string>,
  extensions: ExtensionValidators = registered,
): string[] {
  const shape = envelopeProblem(message);
  if (shape !== undefined || !isRecord(message)) return [`agent sent an invalid message: ${shape}`];
  const { method, id } = message;
  if (typeof method === "string") {
    const kind = "id" in message ? "request-params" : "notification-params";
    const label = `${method} ${kind === "request-params" ? "request" : "notification"} params`;
    if (method.startsWith("_")) return checkExtension(extensions, method, label, message.params);
    return checkMethod(method, kind, label, message.params, ["client", "protocol"]);
  }
  if (!isJsonRpcId(id)) return [`agent sent a response with invalid id ${JSON.stringify(id)}`];
  const answered = pendingMethodById.get(id);
  if (answered === undefined) {
    return [
      `agent sent a response to id ${JSON.stringify(id)}, which no pending client request has`,
    ];
  }
  const label = `${answered} response (id ${JSON.stringify(id)})`;
  if ("error" in message) {
    if (errorValidator(message.error)) return [];
    return describeErrors(errorValidator.errors).map((e) => `${label} error ${e}`);
  }
  if (answered.startsWith("_")) {
    return checkExtension(extensions, resultKey(answered), `${label} result`, message.result);
  }
  return checkMethod(answered, "response-result", `${label} result`, message.result, ["agent"]);
}

function checkMethod(
  method: string,
  kind: MessageKind,
  label: string,
  value: unknown,
  expectedSides: Side[],
): string[] {
  const def = methodDef(method, kind);
  if (def === undefined) return [`${label}: "${method}" is not an ACP method of this kind`];
  if (!expectedSides.includes(def.side)) {
    return [`${label}: "${method}" is handled by the ${def.side}, so the agent must not send this`];
  }
  if (def.validate(value)) return [];
  return describeErrors(def.validate.errors).map((e) => `${label} ${e}`);
}

function checkExtension(
  extensions: ExtensionValidators,
  key: string,
  label: string,
  value: unknown,
): string[] {
  const validate = extensions[key];
  if (validate === undefined) return [`${label}: no validator registered for extension "${key}"`];
  const problem = validate(value);
  return problem === undefined ? [] : [`${label}: ${problem}`];
}

function isJsonRpcId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || Number.isInteger(value);
}

/**
 * What is wrong with a value as a JSON-RPC 2.0 message (request, notification or response),
 * or undefined when its envelope is well formed.
 */
export function envelopeProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "not a JSON object";
  if (value.jsonrpc !== "2.0") return `jsonrpc is ${JSON.stringify(value.jsonrpc)}, not "2.0"`;
  if ("method" in value) {
    if (typeof value.method !== "string") return "method is not a string";
    if ("id" in value && !isJsonRpcId(value.id)) return "request id is not a string or integer";
    if ("result" in value || "error" in value) return "a request carries result or error";
    return undefined;
  }
  if (!("id" in value)) return "neither a request, a notification nor a response";
  if ("result" in value === "error" in value)
    return "a response needs exactly one of result and error";
  return undefined;
}
