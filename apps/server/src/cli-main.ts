import { randomBytes } from 'node:crypto';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Kernel } from '@vigie/kernel';
import { userAdministrationRef, type UserAdministration } from '@vigie/auth';
import { createServerKernel, resolveInstallDir } from './compose.js';
import { scaffoldFeature } from './scaffold.js';

/** Where the CLI writes; replaced in tests. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Reads standard input to its end (for `--password-stdin`). */
  readStdin(): Promise<string>;
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory (where `new feature` writes by default). */
  cwd?: () => string;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  env: process.env,
  cwd: () => process.cwd(),
};

const commonOptions = {
  'install-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const installDirHelp = '  --install-dir <dir>   installation directory: etc/ (configuration) and var/ (data);\n                        default $VIGIE_HOME, else ./.vigie\n  -h, --help            show this help\n';

interface Command {
  usage: string;
  summary: string;
  options: ParseArgsConfig['options'];
  optionsHelp: string;
  positionals: number;
  run(args: { values: Record<string, string | boolean | undefined>; positionals: string[] }, io: CliIo): Promise<number>;
}

/** Opens the installation without serving HTTP, runs `work` with the auth feature's administration, closes. */
async function withAdministration(values: Record<string, unknown>, io: CliIo, work: (admin: UserAdministration) => Promise<void>): Promise<number> {
  let kernel: Kernel | undefined;
  try {
    // Administration commands print their own results: the server's informational log lines would only be noise.
    kernel = await createServerKernel({ installDir: values['install-dir'] as string | undefined, env: { VIGIE_LOG__LEVEL: 'warn', ...io.env } });
    await kernel.init();
    await work(kernel.scope('auth').resolve(userAdministrationRef));
    return 0;
  } catch (err) {
    io.err(`vigie: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await kernel?.stop().catch(() => undefined);
  }
}

async function passwordFrom(values: Record<string, unknown>, io: CliIo): Promise<{ password: string; generated: boolean }> {
  if (values['password-stdin']) return { password: (await io.readStdin()).split(/\r?\n/)[0] ?? '', generated: false };
  if (typeof values.password === 'string') return { password: values.password, generated: false };
  return { password: randomBytes(18).toString('base64url'), generated: true };
}

const passwordOptions = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' } } as const;
const passwordHelp = '  --password-stdin      read the password from the first line of standard input\n  --password <p>        give the password on the command line (visible to other local users)\n                        without either, a password is generated and printed once\n';

const commands: Record<string, Command> = {
  serve: {
    usage: 'vigie serve [--host <address>] [--port <port>] [--install-dir <dir>]',
    summary: 'start the reference server (http://127.0.0.1:8082 by default) until SIGTERM or SIGINT',
    options: { host: { type: 'string' }, port: { type: 'string' } },
    optionsHelp: '  --host <address>      listen address (default [server] host, 127.0.0.1)\n  --port <port>         listen port (default [server] port, 8082)\n',
    positionals: 0,
    run: async ({ values }, io) => {
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
        io.err(`vigie serve: --port must be an integer from 0 to 65535, not ${String(values.port)}\n`);
        return 2;
      }
      const kernel = await createServerKernel({ installDir: values['install-dir'] as string | undefined, env: io.env, host: values.host as string | undefined, port });
      kernel.installSignalHandlers();
      try {
        const address = await kernel.start();
        io.err(`Vigie listens on ${address.url} (install directory ${kernel.installDir})\n`);
      } catch (err) {
        await kernel.stop().catch(() => undefined);
        throw err;
      }
      return 0;
    },
  },
  'user add': {
    usage: 'vigie user add <name> [--role <role>] [--password-stdin | --password <p>]',
    summary: 'create a local user',
    options: { role: { type: 'string' }, ...passwordOptions },
    optionsHelp: `  --role <role>         role of the user (default viewer)\n${passwordHelp}`,
    positionals: 1,
    run: async ({ values, positionals }, io) =>
      withAdministration(values, io, async (admin) => {
        const { password, generated } = await passwordFrom(values, io);
        const user = await admin.addUser({ name: positionals[0] as string, password, role: values.role as string | undefined });
        io.out(`created user ${user._id} (role ${user.role})\n`);
        if (generated) io.out(`password: ${password}\n`);
      }),
  },
  'user passwd': {
    usage: 'vigie user passwd <name> [--password-stdin | --password <p>]',
    summary: "change a local user's password",
    options: passwordOptions,
    optionsHelp: passwordHelp,
    positionals: 1,
    run: async ({ values, positionals }, io) =>
      withAdministration(values, io, async (admin) => {
        const { password, generated } = await passwordFrom(values, io);
        await admin.setPassword(positionals[0] as string, password);
        io.out(`changed the password of ${positionals[0] as string}\n`);
        if (generated) io.out(`password: ${password}\n`);
      }),
  },
  'user list': {
    usage: 'vigie user list',
    summary: 'list users (name, role, state)',
    options: {},
    optionsHelp: '',
    positionals: 0,
    run: async ({ values }, io) =>
      withAdministration(values, io, async (admin) => {
        for (const user of await admin.listUsers()) {
          io.out(`${user._id}\t${user.role}\t${user.enabled ? 'enabled' : 'disabled'}${user.external ? '\texternal' : ''}\n`);
        }
      }),
  },
  'user disable': {
    usage: 'vigie user disable <name>',
    summary: 'refuse further logins of a user',
    options: {},
    optionsHelp: '',
    positionals: 1,
    run: async ({ values, positionals }, io) => withAdministration(values, io, (admin) => admin.setEnabled(positionals[0] as string, false)),
  },
  'user enable': {
    usage: 'vigie user enable <name>',
    summary: 'allow a disabled user again',
    options: {},
    optionsHelp: '',
    positionals: 1,
    run: async ({ values, positionals }, io) => withAdministration(values, io, (admin) => admin.setEnabled(positionals[0] as string, true)),
  },
  'saml2 import': {
    usage: 'vigie saml2 import <setup dir>',
    summary: 'check a SAML2 setup directory and copy it into <install>/etc/saml2, replacing the previous one',
    options: {},
    optionsHelp: '',
    positionals: 1,
    run: async ({ values, positionals }, io) => {
      // No kernel here: the server may not start while SAML2 is switched on and not yet set up.
      const { importSaml2Setup } = await import('@vigie/saml2');
      try {
        const destination = importSaml2Setup(positionals[0] as string, resolveInstallDir(values['install-dir'] as string | undefined, io.env));
        io.out(`imported the SAML2 setup into ${destination}; restart the server to apply it (with [webservices] saml2 = 1)\n`);
        return 0;
      } catch (err) {
        io.err(`vigie saml2 import: ${(err as Error).message}\n`);
        return 1;
      }
    },
  },
  'apikey create': {
    usage: 'vigie apikey create <user> [--label <text>]',
    summary: 'create an API key acting as <user>; the key is printed once',
    options: { label: { type: 'string' } },
    optionsHelp: '  --label <text>        what the key is for\n',
    positionals: 1,
    run: async ({ values, positionals }, io) =>
      withAdministration(values, io, async (admin) => {
        const { key } = await admin.createApiKey(positionals[0] as string, { label: (values.label as string | undefined) ?? '' });
        io.out(`${key}\n`);
      }),
  },
  'new feature': {
    usage: 'vigie new feature <name> [--dir <directory>]',
    summary: 'scaffold a feature package (in packages/<name> of the Vigie repository, else ./<name> as a plugin)',
    options: { dir: { type: 'string' } },
    optionsHelp: '  --dir <directory>     where to create the package (must be absent or empty)\n',
    positionals: 1,
    run: async ({ values, positionals }, io) => {
      try {
        const result = scaffoldFeature({ name: positionals[0] as string, dir: values.dir as string | undefined, cwd: io.cwd?.() ?? process.cwd() });
        io.out(`created ${result.mode === 'workspace' ? 'workspace package' : 'plugin package'} ${result.dir}\n${result.files.map((f) => `  ${f}\n`).join('')}`);
        io.out(
          result.mode === 'workspace'
            ? `next: npx -y pnpm@10 install, add it to apps/server/src/features.ts, then npx vitest run --project ${positionals[0] as string}\n`
            : 'next: npm install && npm run build && npm test, then list it in [server] plugins (see docs/embedding.md)\n',
        );
        return 0;
      } catch (err) {
        io.err(`vigie new feature: ${err instanceof Error ? err.message : String(err)}\n`);
        return 1;
      }
    },
  },
};

function mainHelp(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: vigie <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nEvery command takes:\n${installDirHelp}\nRun \`vigie <command> --help\` for the options of a command.\n`;
}

function commandHelp(name: string, command: Command): string {
  return `Usage: ${command.usage}\n\n${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.\n\nOptions:\n${command.optionsHelp}${installDirHelp}`;
}

/** Runs one CLI invocation; returns the exit code (serve returns once listening). */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(mainHelp());
    return argv.length === 0 ? 2 : 0;
  }
  const name = [argv.slice(0, 2).join(' '), argv[0] as string].find((candidate) => candidate in commands);
  if (!name) {
    io.err(`vigie: unknown command ${JSON.stringify(argv.slice(0, 2).join(' '))}\n\n${mainHelp()}`);
    return 2;
  }
  const command = commands[name] as Command;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv.slice(name.split(' ').length) as string[], options: { ...commonOptions, ...command.options }, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`vigie ${name}: ${(err as Error).message}\n\n${commandHelp(name, command)}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(commandHelp(name, command));
    return 0;
  }
  if (parsed.positionals.length !== command.positionals) {
    io.err(`vigie ${name}: expected ${command.positionals} argument(s), got ${parsed.positionals.length}\n\n${commandHelp(name, command)}`);
    return 2;
  }
  return command.run({ values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals }, io);
}
