/**
 * A token estimate where no response has counted: about 4 characters a token (Claude Code's rule of thumb for its
 * own bounds). Used where a size must be known before the API measures it: the MCP output bound, the context a
 * turn's tool results add, the scripted model's usage.
 */
export const charsPerToken = 4

/** Tokens of `chars` characters, rounded up. */
export const ofChars = (chars: number): number => Math.ceil(chars / charsPerToken)

/** Tokens of a value as JSON (what a request sends of it). */
export const ofJson = (value: unknown): number => ofChars(JSON.stringify(value).length)
