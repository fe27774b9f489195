import {
  apiRoutes,
  type SignInOptionsResponse,
  type SignUpOptionsResponse,
} from '@iron-curtain/protocol';
import { SoftAuthenticator } from './soft-authenticator.ts';

export interface Answer<T = unknown> {
  status: number;
  body: T & { error?: { code: string; message: string; similarTo?: string } };
  setCookie: string[];
}

/**
 * A browser for the account routes: it keeps the session cookie it is given, sends its page's
 * Origin with every request that writes, and holds its passkeys in a software authenticator.
 */
export class Browser {
  cookie: string | undefined;
  readonly authenticator: SoftAuthenticator;

  constructor(
    readonly origin: string,
    private readonly headers: Record<string, string> = {},
  ) {
    this.authenticator = new SoftAuthenticator(origin);
  }

  async send<T = unknown>(
    url: string,
    method: 'GET' | 'POST' | 'DELETE',
    body?: unknown,
    origin = this.origin,
  ): Promise<Answer<T>> {
    const response = await fetch(url, {
      method,
      headers: {
        ...this.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'GET' ? {} : { origin }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie();
    for (const line of setCookie) {
      const [pair] = line.split(';');
      const value = pair?.split('=')[1];
      this.cookie = value ? pair : undefined;
    }
    return {
      status: response.status,
      body: (await response.json()) as Answer<T>['body'],
      setCookie,
    };
  }

  /** A whole sign-up on `server` (both requests there unless `finishOn` is given). */
  async signUp(server: string, username: string, finishOn = server) {
    const options = await this.send<SignUpOptionsResponse>(
      `${server}${apiRoutes.signUpOptions}`,
      'POST',
      {
        username,
      },
    );
    if (options.status !== 200) return options;
    return this.send(`${finishOn}${apiRoutes.signUp}`, 'POST', {
      response: this.authenticator.register(options.body.options),
      passkeyName: 'test laptop',
    });
  }

  /** Sign-in options from `server`: the challenge to sign. */
  async signInOptions(server: string) {
    const options = await this.send<SignInOptionsResponse>(
      `${server}${apiRoutes.signInOptions}`,
      'POST',
      {},
    );
    if (options.status !== 200) throw new Error(`sign-in options: ${JSON.stringify(options.body)}`);
    return options.body.options;
  }

  async signIn(server: string, response: unknown) {
    return this.send(`${server}${apiRoutes.signIn}`, 'POST', { response });
  }

  account(server: string) {
    return this.send(`${server}${apiRoutes.account}`, 'GET');
  }
}
