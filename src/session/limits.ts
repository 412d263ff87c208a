// The turn's default bounds, in a module of their own: the CLI's config reads them at
// startup without loading the turn loop and everything it imports.

/** Model/tool rounds in one turn before it stops with `max_turn_requests`. */
export const DEFAULT_MAX_ROUNDS = 50;

/** Consecutive Stop blocks one turn honours before it ends anyway. */
export const DEFAULT_MAX_STOP_BLOCKS = 8;
