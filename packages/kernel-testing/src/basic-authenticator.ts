import { everyRight, parseBasicAuthorization, secretsEqual, type Authenticator, type AuthOutcome, type HttpContext, type Rights } from '@vigie/kernel';

const allRights: Rights = new Set([everyRight]);

/**
 * HTTP Basic against a fixed list of users, each holding every right: what `startTestKernel` uses when no auth feature is composed
 * (production deployments use `@vigie/auth`).
 */
export class StaticBasicAuthenticator implements Authenticator {
  readonly #users: ReadonlyMap<string, string>;

  constructor(users: Record<string, string>) {
    this.#users = new Map(Object.entries(users));
  }

  async authenticate(ctx: HttpContext): Promise<AuthOutcome> {
    const header = ctx.get('authorization');
    if (!header) return { ok: false, reason: 'missing' };
    const creds = parseBasicAuthorization(header);
    const expected = creds ? this.#users.get(creds.user) : undefined;
    if (!creds || expected === undefined || !secretsEqual(creds.password, expected)) return { ok: false, reason: 'invalid' };
    return { ok: true, user: { id: creds.user, name: creds.user, via: 'basic', rights: allRights } };
  }

  challenge(): string {
    return 'Basic realm="vigie", charset="UTF-8"';
  }
}
