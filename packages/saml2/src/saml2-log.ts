import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** `var/log/saml2.log`: where the spec sends SAML2 errors (one line each, besides the server log). */
export class Saml2Log {
  readonly path: string;

  constructor(installDir: string) {
    this.path = join(installDir, 'var', 'log', 'saml2.log');
  }

  async error(message: string): Promise<void> {
    try {
      await mkdir(join(this.path, '..'), { recursive: true });
      await appendFile(this.path, `${new Date().toISOString()} ERROR ${message.replace(/[\r\n]+/g, ' ')}\n`, { mode: 0o640 });
    } catch {
      // The server log has the same line; a full disk must not turn a refused login into a crash.
    }
  }
}
