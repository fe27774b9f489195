import helmet from 'helmet';
import type { Middleware } from 'koa';
import type { Config } from '../ops/config.ts';

/**
 * Browser features the game never uses, switched off for its pages and anything they embed
 * (helmet has no Permissions-Policy). The clipboard stays: the invite link has a copy button.
 */
const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'serial',
  'usb',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

export type SecurityHeadersConfig = Pick<Config, 'SERVED_OVER_TLS' | 'FRAME_ANCESTORS'>;

/**
 * The browser protections of every answer (helmet). The web client is Vite's build: scripts
 * and styles are files of our own origin, never inline, so the policy allows nothing else;
 * the socket goes to our own origin too ('self' covers ws: and wss: of it). The invite's
 * secret is in the link's fragment, which no Referer carries; `no-referrer` keeps even the
 * match id to ourselves.
 */
export function securityHeaders(config: SecurityHeadersConfig): Middleware {
  const embeddable = config.FRAME_ANCESTORS.length > 0;
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: embeddable ? config.FRAME_ANCESTORS : ["'none'"],
        // Over plain http (a LAN party, a laptop) an upgrade would break every asset.
        ...(config.SERVED_OVER_TLS ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    // Only the operator knows whether browsers reach the site over https.
    strictTransportSecurity: config.SERVED_OVER_TLS ? { maxAge: 31_536_000 } : false,
    // Older browsers read this instead of frame-ancestors; it cannot name other origins.
    xFrameOptions: embeddable ? false : { action: 'deny' },
  });
  return async (ctx, next) => {
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    // helmet is Connect middleware: it sets its headers on the Node response, then calls on.
    await new Promise<void>((resolve, reject) =>
      headers(ctx.req, ctx.res, (error?: unknown) => (error ? reject(error) : resolve())),
    );
    return next();
  };
}
