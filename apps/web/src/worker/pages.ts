/**
 * The pages as the service worker answers them: from the server whenever it answers, so a page
 * online is exactly the server's (the current deploy, with its route's preloads); the shell
 * kept at install when no answer comes (offline, the network timed out) or the server is down
 * behind a proxy (5xx). The server's own refusals (a 404) stand.
 */
export async function pageOrShell(
  fromServer: () => Promise<Response>,
  shell: () => Promise<Response>,
): Promise<Response> {
  let answer: Response;
  try {
    answer = await fromServer();
  } catch {
    return shell();
  }
  return answer.status >= 500 ? shell() : answer;
}

/**
 * Navigations the server answers itself (apps/server/src/edge/static-files.ts: its API, socket,
 * metrics and health paths) and files (a name with an extension): never the shell.
 */
export const NOT_PAGES = [/^\/(api|socket\.io|metrics|healthz|readyz)(\/|$)/, /\/[^/]*\.[^/]*$/];
