import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Files of `swagger-ui-dist` the page loads, with their media types: nothing else of the package is served. */
const assetTypes: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
};

/** Where the page and its assets live; the document it renders is `documentPath`. */
export const referencePaths = { page: '/api/v2/docs', assets: '/api/v2/docs/:asset', documentPath: '/api/v2/openapi.json' } as const;

/** The page: Swagger UI from local assets (no CDN), rendering the server's own OpenAPI document. */
export const referencePage = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Vigie API reference</title>
  <link rel="stylesheet" href="${referencePaths.page}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${referencePaths.page}/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${referencePaths.page}/swagger-ui-bundle.js"></script>
  <script src="${referencePaths.page}/init.js"></script>
</body>
</html>
`;

/** Started from a file rather than inline, so that a Content-Security-Policy without 'unsafe-inline' allows it. */
const initScript = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(referencePaths.documentPath)}, dom_id: '#swagger-ui', deepLinking: true });\n`;

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** An asset of the page by file name, or undefined for any other name (no path ever reaches the file system). */
export function referenceAsset(name: string): { type: string; body: NodeJS.ReadableStream | string } | undefined {
  if (name === 'init.js') return { type: 'text/javascript; charset=utf-8', body: initScript };
  const type = assetTypes[name];
  return type === undefined ? undefined : { type, body: createReadStream(join(distDir, name)) };
}
