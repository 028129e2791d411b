import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** A user of the test CAS server. */
export interface CasUser {
  password: string;
  attributes: Record<string, string>;
}

export interface CasServer {
  url: string;
  /** Every `serviceValidate` request received (service and ticket), to check what Vigie sent. */
  validations: { service: string | null; ticket: string | null }[];
  /** Issues a ticket for a user and service without the login form (as a successful login would). */
  issue(user: string, service: string): string;
  close(): Promise<void>;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small CAS server (protocol 3.0 subset): `GET /login` shows a login form (auto-submitted for `autoLogin`),
 * `POST /login` checks the password and redirects to the service with a single-use ticket, `GET /serviceValidate`
 * validates a ticket once for the service it was issued for and answers the CAS 2/3 XML with attributes.
 */
export async function startCasServer(users: Record<string, CasUser>, options: { autoLogin?: string } = {}): Promise<CasServer> {
  const tickets = new Map<string, { user: string; service: string }>();
  const validations: CasServer['validations'] = [];
  const issue = (user: string, service: string): string => {
    const ticket = `ST-${randomBytes(16).toString('hex')}`;
    tickets.set(ticket, { user, service });
    return ticket;
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://cas.test');
    if (req.method === 'GET' && url.pathname === '/login') {
      const service = url.searchParams.get('service') ?? '';
      const auto = options.autoLogin;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!DOCTYPE html><html><body><h1>Test CAS</h1><form method="post" action="/login">` +
          `<input type="hidden" name="service" value="${escapeXml(service)}">` +
          `<input name="username" value="${escapeXml(auto ?? '')}"><input name="password" type="password" value="${escapeXml(auto ? (users[auto]?.password ?? '') : '')}">` +
          `<button>Log in</button></form>${auto ? '<script>document.forms[0].submit()</script>' : ''}</body></html>`,
      );
      return;
    }
    if (req.method === 'POST' && url.pathname === '/login') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const user = form.get('username') ?? '';
        const service = form.get('service') ?? '';
        if (users[user]?.password !== form.get('password') || service === '') {
          res.writeHead(401, { 'content-type': 'text/plain' });
          res.end('wrong credentials');
          return;
        }
        const target = new URL(service);
        target.searchParams.set('ticket', issue(user, service));
        res.writeHead(303, { location: target.toString() });
        res.end();
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/serviceValidate') {
      const service = url.searchParams.get('service');
      const ticket = url.searchParams.get('ticket');
      validations.push({ service, ticket });
      const issued = ticket === null ? undefined : tickets.get(ticket);
      if (ticket !== null) tickets.delete(ticket);
      res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
      if (!issued || issued.service !== service) {
        const code = issued ? 'INVALID_SERVICE' : 'INVALID_TICKET';
        res.end(`<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationFailure code="${code}">Ticket ${escapeXml(ticket ?? '')} not recognized</cas:authenticationFailure></cas:serviceResponse>`);
        return;
      }
      const attributes = Object.entries(users[issued.user]?.attributes ?? {})
        .map(([name, value]) => `<cas:${name}>${escapeXml(value)}</cas:${name}>`)
        .join('');
      res.end(
        `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>${escapeXml(issued.user)}</cas:user>` +
          `<cas:attributes>${attributes}</cas:attributes></cas:authenticationSuccess></cas:serviceResponse>`,
      );
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    validations,
    issue,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
