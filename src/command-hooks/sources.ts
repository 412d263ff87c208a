/**
 * The settings sources `--setting-sources` chooses from: a module of its own, so the command
 * line reads them without loading the settings loader.
 */
export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/**
 * Where Claude Code reads managed settings (its `managed-settings.json`): the administrator's
 * policy, above every other source. `--managed-settings` points elsewhere.
 */
export const MANAGED_SETTINGS_PATH =
  process.platform === "darwin"
    ? "/Library/Application Support/ClaudeCode/managed-settings.json"
    : process.platform === "win32"
      ? "C:\\Program Files\\ClaudeCode\\managed-settings.json"
      : "/etc/claude-code/managed-settings.json";
