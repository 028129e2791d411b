// The reference server as deployers run it (compiled packages, embedded store, default features).
import { createServerKernel } from '@vigie/server';

const [installDir] = process.argv.slice(2);
const kernel = await createServerKernel({
  installDir,
  port: 0,
  env: { ...process.env, VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: 'bench-password' },
});
kernel.installSignalHandlers();
const { url } = await kernel.start();
process.stdout.write(`LISTENING ${url}\n`);
