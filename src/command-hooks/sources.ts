/**
 * The settings sources `--setting-sources` chooses from: a module of its own, so the command
 * line reads them without loading the settings loader.
 */
export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];
