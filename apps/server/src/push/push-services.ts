/**
 * Whether the server may post to `endpoint`: its origin is one of `services`, where
 * `https://*.example.org` stands for every subdomain of example.org (not example.org itself).
 */
export function pushServiceAllowed(services: readonly string[], endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  return services.some((service) => {
    const wild = service.indexOf('://*.');
    if (wild < 0) return url.origin === service;
    const scheme = service.slice(0, wild + 1);
    const parent = new URL(service.replace('://*.', '://'));
    return (
      url.protocol === scheme &&
      url.port === parent.port &&
      url.hostname.endsWith(`.${parent.hostname}`)
    );
  });
}
