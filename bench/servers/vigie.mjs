// The reference server as deployers run it (compiled packages, embedded store, default features), plus one feature
// contributing a @koa/router router, so the figure includes what mounting such a router costs declared routes.
import Router from '@koa/router';
import { defineFeature } from '@vigie/kernel';
import { createServerKernel } from '@vigie/server';

const legacy = new Router({ prefix: '/api/v2/bench-legacy' });
legacy.get('/items', (ctx) => void (ctx.body = []));
legacy.get('/items/:id', (ctx) => void (ctx.body = { id: ctx.params.id }));
legacy.post('/items', (ctx) => void (ctx.status = 201));
const routerFeature = defineFeature({ id: 'bench-legacy', kernel: '^0.1.0', register: (f) => f.router(legacy, { right: 'bench-legacy:read' }) });

const [installDir] = process.argv.slice(2);
const kernel = await createServerKernel({
  installDir,
  port: 0,
  env: { ...process.env, VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: 'bench-password' },
  extraFeatures: [routerFeature],
});
kernel.installSignalHandlers();
const { url } = await kernel.start();
process.stdout.write(`LISTENING ${url}\n`);
