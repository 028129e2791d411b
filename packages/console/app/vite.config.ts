import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into the package's dist/app, which the console feature serves: the page at `/`, hashed files under
// /console/assets/ (cached for a year, so a new build is picked up through the page, which is never cached).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  resolve: {
    // @rjsf/core's test helper imports the Ajv validator, which compiles with eval (refused by the console's CSP): the
    // console's own interpreting validator stands in, so Ajv is neither installed nor bundled.
    alias: { '@rjsf/validator-ajv8': fileURLToPath(new URL('src/admin/validator.ts', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/app', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
