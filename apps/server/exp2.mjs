import { Kernel, defineFeature, memoryStoreFactory, createLogger, StaticBasicAuthenticator } from '@vigie/kernel';
import { createRequire } from 'node:module';
const autocannon = createRequire('/work/main/bench/package.json')('autocannon');
const variant = process.argv[2];
const f = defineFeature({ id: 'x', kernel: '^0.1.0', register(r) {
  r.route({ method: 'GET', path: '/pub', public: true, handler: () => ({ a: 1 }) });
}});
const k = new Kernel({ features: [f], installDir: '/tmp/expk', env: {}, configOverrides: { 'webserver.conf': { server: { port: 0 } } }, store: memoryStoreFactory(), logger: createLogger({ level: 'silent' }), authenticator: new StaticBasicAuthenticator({ root: 'x' }) });
const { url } = await k.start();
const t0 = process.cpuUsage();
const r = await new Promise((res) => autocannon({ url: url + '/pub', connections: 10, duration: 3 }, (e, r) => res(r)));
const cpu = process.cpuUsage(t0);
console.log(r.requests.average, r.latency.p50, r.latency.p99, 'cpu user ms', cpu.user / 1000, 'sys', cpu.system / 1000);
await k.stop();
