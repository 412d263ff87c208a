import { observed } from "./observed.js";

/**
 * PermissionDenied: Claude Code fires it only when its `auto` mode's classifier denies a call;
 * hookgate has no such mode, so it is accepted and never fires (docs/hooks.md).
 */
export const permissionDenied = observed("PermissionDenied");
