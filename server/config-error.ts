/**
 * A setting with a bad value: the message names the flag, the variable and what to write. Its own
 * module, so the settings modules that config.ts gathers can throw it without importing config.ts.
 */
export class ConfigError extends Error {}
