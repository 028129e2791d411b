import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { injectable } from 'tsyringe';

/** Where Vite writes the built application: `dist/app` of this package, from `src/` (tests) and `dist/` (published) alike. */
export const appDir = fileURLToPath(new URL('../dist/app/', import.meta.url));

const mediaTypes: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

export interface ConsoleAsset {
  type: string;
  body: Buffer;
}

/**
 * The built single-page application, read once: `index.html` and the hashed files of `assets/`. Only the names
 * found there are served, so a request can never reach another file.
 */
@injectable()
export class ConsoleAssets {
  #index: string | null | undefined;
  #assets: Map<string, ConsoleAsset> | undefined;

  /** The page, or null when the application has not been built (`pnpm run build` builds it). */
  index(): string | null {
    if (this.#index === undefined) {
      const file = `${appDir}index.html`;
      this.#index = existsSync(file) ? readFileSync(file, 'utf8') : null;
    }
    return this.#index;
  }

  asset(name: string): ConsoleAsset | undefined {
    if (!this.#assets) {
      const dir = `${appDir}assets/`;
      const names = existsSync(dir) ? readdirSync(dir) : [];
      this.#assets = new Map(
        names.flatMap((file) => {
          const type = mediaTypes[extname(file)];
          return type === undefined ? [] : [[file, { type, body: readFileSync(dir + file) }] as const];
        }),
      );
    }
    return this.#assets.get(name);
  }
}
