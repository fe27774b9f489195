/** A username: 3-20 ASCII letters, digits, `_` or `-` (reserved and look-alike names are the server's to refuse). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,20}$/;
