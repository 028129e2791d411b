// The baseline: a bare Koa application answering the same JSON on the same path, nothing else.
import Koa from 'koa';

// What Vigie answers the bench's administrator on GET /api/v2/account/me, byte for byte.
const body = { id: 'root', name: 'root', role: 'admin', roles: ['admin'], rights: ['*', 'account:own'], via: 'basic' };
const app = new Koa();
app.use((ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/api/v2/account/me') ctx.body = body;
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${server.address().port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
