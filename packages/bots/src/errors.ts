/** Bad input to a bot: a seat that is not deciding, a view that is not a consistent seat's view. */
export class BotError extends Error {
  override name = 'BotError';
}
