/**
 * The caps on one shell call's work, shared by the walk (./walk.ts) and the front table's shortcut
 * (./front-plain.ts). Constants only, so the shortcut can sit in the hook bundle's eager part without the parser.
 */

/**
 * Most simple commands one shell call may hold, nested scripts (`sh -c '…'`) included. Beyond it the call is
 * refused unclassified (`guard.input-too-complex`): no model writes a thousand commands in one call, and the cap
 * bounds the walk's work whatever the input.
 */
export const MAX_SIMPLE_COMMANDS = 1000;
/** Most words (command names, operands, assignment values and redirect targets) in one shell call. */
export const MAX_WORDS = 32_768;
