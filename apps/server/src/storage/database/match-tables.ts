/**
 * Everything stored with a match, on either backend, children first (the match row goes
 * last): removing a match removes its rows from each. A new table naming a match belongs here.
 */
export const MATCH_TABLES = [
  'account_seats',
  'push_subscriptions',
  'chat_lines',
  'moves',
  'states',
  'seats',
  'matches',
] as const;
