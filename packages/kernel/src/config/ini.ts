import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type IniSections = Record<string, Record<string, string>>;

/**
 * Reads the INI dialect of the spec's configuration files: `[section]` headers, `key = value` lines,
 * `;` or `#` comments, optional quotes around values. Names are kept verbatim (dots included); a key outside
 * any section lands in the section named ''. Problems are reported with their line number.
 */
export function parseIni(text: string, fileName = 'config'): IniSections {
  const sections: IniSections = {};
  let current = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      current = (header[1] as string).trim();
      sections[current] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`${fileName}:${i + 1}: expected "key = value" or "[section]", got ${JSON.stringify(line)}`);
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
      value = value.slice(1, -1);
    }
    (sections[current] ??= {})[key] = value;
  }
  return sections;
}

/** `{ 'webserver.conf': { auth: { providers: 'basic' } } }`: values set by code over files and environment. */
export type ConfigOverrides = Record<string, Record<string, Record<string, string | number | boolean>>>;

/** Environment variable that overrides `key` of `[section]`: `VIGIE_<SECTION>__<KEY>`, non-alphanumerics as `_`. */
export function envVariableFor(section: string, key: string): string {
  const norm = (s: string): string => s.toUpperCase().replace(/[^A-Z0-9]/g, '_');
  return `VIGIE_${norm(section)}__${norm(key)}`;
}

/**
 * The configuration of one installation: INI files under `<install>/etc`, then `VIGIE_<SECTION>__<KEY>`
 * environment variables, then overrides given by code. Files are read once.
 */
export class ConfigFiles {
  readonly etcDir: string;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #overrides: ConfigOverrides;
  readonly #cache = new Map<string, IniSections>();

  constructor(etcDir: string, env: Readonly<Record<string, string | undefined>>, overrides: ConfigOverrides = {}) {
    this.etcDir = etcDir;
    this.#env = env;
    this.#overrides = overrides;
  }

  file(name: string): IniSections {
    let parsed = this.#cache.get(name);
    if (!parsed) {
      const path = join(this.etcDir, name);
      parsed = existsSync(path) ? parseIni(readFileSync(path, 'utf8'), path) : {};
      this.#cache.set(name, parsed);
    }
    return parsed;
  }

  /** The merged key/value pairs of one section. */
  section(file: string, section: string): Record<string, string> {
    const out: Record<string, string> = { ...(this.file(file)[section] ?? {}) };
    const prefix = envVariableFor(section, '');
    for (const [name, value] of Object.entries(this.#env)) {
      if (value === undefined || !name.startsWith(prefix)) continue;
      const envKey = name.slice(prefix.length);
      // Match the variable back to a known key when one exists so the file's spelling is kept.
      const known = Object.keys(out).find((k) => envVariableFor(section, k) === name);
      out[known ?? envKey.toLowerCase()] = value;
    }
    for (const [key, value] of Object.entries(this.#overrides[file]?.[section] ?? {})) out[key] = String(value);
    return out;
  }
}
