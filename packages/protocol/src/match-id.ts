/**
 * A match id's shape, without zod: the web client's shell reads match ids from the address bar
 * before any page's code loads, and zod's core would be a fifth of its script. matchIdSchema is
 * built from this pattern.
 */
export const matchIdPattern = /^[A-Za-z0-9_-]{8,64}$/;

export const isMatchId = (text: string): boolean => matchIdPattern.test(text);
