import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { KERNEL_VERSION } from '@vigie/kernel';

export interface ScaffoldOptions {
  /** Feature id, kebab-case (`asset-tags`). */
  name: string;
  /** Directory to create; `packages/<name>` of the Vigie workspace around `cwd`, else `<cwd>/<name>`. */
  dir?: string;
  cwd: string;
}

export interface ScaffoldResult {
  dir: string;
  /** `workspace`: a package of the Vigie repository (`@vigie/<name>`, `workspace:^`); `standalone`: a plugin package. */
  mode: 'workspace' | 'standalone';
  files: string[];
}

const idPattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** The Vigie repository containing `dir` (a pnpm workspace with `packages/kernel`), if any. */
function workspaceRoot(dir: string): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    if (existsSync(join(current, 'pnpm-workspace.yaml')) && existsSync(join(current, 'packages', 'kernel', 'package.json'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

const camel = (id: string): string => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const pascal = (id: string): string => camel(id).replace(/^./, (c) => c.toUpperCase());

/** Every file of a new feature, by path relative to its package directory. */
function templates(id: string, mode: ScaffoldResult['mode']): Record<string, string> {
  const c = camel(id);
  const P = pascal(id);
  const packageName = mode === 'workspace' ? `@vigie/${id}` : `vigie-${id}`;
  const collection = id.replace(/-/g, '_');
  const base = `/api/v2/${id}`;
  const kernelRange = `^${KERNEL_VERSION}`;
  const workspace = mode === 'workspace';

  const shared = { '@vigie/kernel': workspace ? 'workspace:^' : kernelRange, tsyringe: '^4.10.0', yup: '^1.7.1' };
  const manifest = {
    name: packageName,
    version: '0.1.0',
    description: `Vigie feature ${id}`,
    license: 'Apache-2.0',
    type: 'module',
    exports: { '.': workspace ? { 'vigie-source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } : { types: './dist/index.d.ts', default: './dist/index.js' } },
    files: ['dist', 'src', '!src/**/*.test.ts'],
    engines: { node: '>=20.19' },
    ...(workspace ? {} : { scripts: { build: 'tsc -p tsconfig.json', test: 'vitest run' } }),
    // The feature kit and the input helpers hold no state of their own: the package may have its own copies.
    dependencies: { '@vigie/feature-kit': workspace ? 'workspace:^' : kernelRange, '@vigie/input': workspace ? 'workspace:^' : kernelRange },
    // The host's copies, never the package's own: one kernel (and one tsyringe, one yup) in any program.
    peerDependencies: shared,
    devDependencies: workspace
      ? { ...shared, '@vigie/testkit': 'workspace:^', vitest: '~4.1.12' }
      : { ...shared, '@types/node': '^20.19.0', '@vigie/documents': kernelRange, '@vigie/kernel-testing': kernelRange, typescript: '~5.9.3', vitest: '~4.1.12' },
  };

  const tsconfig = workspace
    ? {
        extends: '../../tsconfig.base.json',
        compilerOptions: { rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/.tsbuildinfo' },
        include: ['src'],
        exclude: ['src/**/*.test.ts'],
        references: [{ path: '../kernel' }],
      }
    : {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          isolatedModules: true,
          verbatimModuleSyntax: true,
          // tsyringe's constructor-parameter decorators.
          experimentalDecorators: true,
          declaration: true,
          sourceMap: true,
          rootDir: 'src',
          outDir: 'dist',
          types: ['node'],
        },
        include: ['src'],
      };

  const testImports = workspace
    ? `import { startFeatureTest, type TestKernel } from '@vigie/testkit';\n`
    : `import { memoryStoreFactory } from '@vigie/documents';\nimport { startTestKernel, type TestKernel } from '@vigie/kernel-testing';\n`;
  const start = workspace
    ? `startFeatureTest({ features: [${c}Feature], config: { 'webserver.conf': { '${id}': { max_items: '2' } } } })`
    : `startTestKernel({ store: memoryStoreFactory(), features: [${c}Feature], config: { 'webserver.conf': { '${id}': { max_items: '2' } } } })`;

  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    'README.md': `# ${packageName}

Vigie feature \`${id}\`: describe what it does here.

## Routes

| route | what |
|---|---|
| \`GET ${base}\` | list the items |
| \`POST ${base}\` | create an item \`{ "_id": "...", "name": "..." }\` |
| \`GET ${base}/<id>\` | one item; 404 when absent |

## Configuration: \`[${id}]\` of \`etc/webserver.conf\`

| key | default | meaning |
|---|---|---|
| \`max_items\` | \`100\` | how many items the feature keeps at most |

## Decisions

Items live in the store collection \`${collection}\`.
`,
    'src/index.ts': `export { ${c}Feature } from './feature.js';
export { ${c}ServiceRef } from './refs.js';
export { ${P}Service } from './${id}-service.js';
export type { ${P}Item } from './schemas.js';
`,
    'src/feature.ts': `import { defineFeature } from '@vigie/kernel';
import { ${c}Bridge } from './di.js';
import { ${c}Errors } from './errors.js';
import { ${c}Routes } from './routes.js';
import { ${c}ItemCollection } from './${id}-repository.js';
import { ${c}Config } from './schemas.js';

/** ${P}: items kept in the store and served over HTTP. */
export const ${c}Feature = defineFeature({
  id: '${id}',
  kernel: '${kernelRange}',
  config: ${c}Config,
  register(f) {
    f.use(${c}Bridge);
    f.collection(${c}ItemCollection);
    f.errors(${c}Errors);
    for (const route of ${c}Routes) f.route(route);
  },
});
`,
    'src/refs.ts': `import { serviceRef } from '@vigie/kernel';
import type { ${P}Service } from './${id}-service.js';

/** What features that depend on this one resolve (\`scope.resolve(${c}ServiceRef)\`). */
export const ${c}ServiceRef = serviceRef<${P}Service>('${id}.service');
`,
    'src/di.ts': `import { defineBridge, provide } from '@vigie/kernel';
import { ${P}Repository } from './${id}-repository.js';
import { ${P}Service } from './${id}-service.js';
import { ${c}ServiceRef } from './refs.js';

/** The feature's class graph (tsyringe): it resolves these classes, dependents see its exports. */
export const ${c}Bridge = defineBridge({
  singletons: [${P}Repository, ${P}Service],
  exports: [provide(${c}ServiceRef, ${P}Service)],
});
`,
    'src/schemas.ts': `import { featureConfig } from '@vigie/kernel';
import { array, number, object, string, type InferType } from 'yup';

/** \`[${id}]\` of \`etc/webserver.conf\`. */
export const ${c}ConfigSchema = object({
  max_items: number().integer().min(1).default(100),
});
export type ${P}Config = InferType<typeof ${c}ConfigSchema>;
/** The configuration as the feature declares it and its classes inject it (\`@injectRef(${c}Config.ref)\`). */
export const ${c}Config = featureConfig(${c}ConfigSchema);

/** POST body: exactly these keys. The kernel checks it before the handler, which gets it typed from this schema. */
export const ${c}InputSchema = object({
  _id: string().trim().min(1).max(255).required(),
  name: string().trim().min(1).max(255).required(),
}).noUnknown().required();
export type ${P}Input = InferType<typeof ${c}InputSchema>;

/** An item as served; the stored record is derived from it (\`${P}Record\`), so the item is described once. */
export const ${c}ItemSchema = object({ _id: string().required(), name: string().required() });
export type ${P}Item = InferType<typeof ${c}ItemSchema>;
export const ${c}ListSchema = array(${c}ItemSchema.required()).required();
`,
    'src/errors.ts': `import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** How this feature words the kernel's errors. */
export const ${c}Errors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'A JSON body is required' }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: \`invalid ${id} item: \${e.detail}\` }),
  [ErrorCodes.DuplicateKey]: () => ({ status: 409, description: 'An item with this id already exists' }),
};
`,
    [`src/${id}-repository.ts`]: `import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Doc, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';
import type { ${P}Item } from './schemas.js';

/** An item as stored in \`${collection}\`: the served item, as a store document. */
export interface ${P}Record extends Doc, ${P}Item {}

/** The collection, named once: the feature declares it, the repository reads and writes it. */
export const ${c}ItemCollection = collectionRef<${P}Record>('${collection}');

/** The items in \`${collection}\`, by id: get, list, insert, replace and delete come from DocumentRepository. */
@injectable()
export class ${P}Repository extends DocumentRepository<${P}Record> {
  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    super(store, ${c}ItemCollection, { order: { _id: 1 } });
  }

  count(): Promise<number> {
    return this.documents.count();
  }
}
`,
    [`src/${id}-service.ts`]: `import { inject, injectable } from 'tsyringe';
import { HttpError, injectRef } from '@vigie/kernel';
import { ${P}Repository, type ${P}Record } from './${id}-repository.js';
import { ${c}Config, type ${P}Config, type ${P}Input, type ${P}Item } from './schemas.js';

const toItem = (record: ${P}Record): ${P}Item => ({ _id: record._id, name: record.name });

@injectable()
export class ${P}Service {
  constructor(
    @inject(${P}Repository) private readonly items: ${P}Repository,
    @injectRef(${c}Config.ref) private readonly config: ${P}Config,
  ) {}

  async list(): Promise<${P}Item[]> {
    return (await this.items.list()).map(toItem);
  }

  async get(id: string): Promise<${P}Item> {
    const record = await this.items.get(id);
    if (!record) throw new HttpError(404, \`No ${id} item \${id}\`);
    return toItem(record);
  }

  async create(input: ${P}Input): Promise<${P}Item> {
    if ((await this.items.count()) >= this.config.max_items) throw new HttpError(409, \`At most \${this.config.max_items} items\`);
    await this.items.insert({ _id: input._id, name: input.name });
    return toItem(input);
  }
}
`,
    'src/routes.ts': `import { defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { ${P}Service } from './${id}-service.js';
import { ${c}InputSchema, ${c}ItemSchema, ${c}ListSchema } from './schemas.js';

const tags = ['${id}'];
const service = (ctx: VigieContext) => ctx.state.scope.resolve(${P}Service);

export const ${c}Routes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '${base}',
    // Every route names the right it needs (\`<resource>:<action>\`); the kernel checks it before the handler.
    right: '${id}:read',
    summary: 'List the items',
    tags,
    responses: { 200: { description: 'Every item, by id', schema: ${c}ListSchema } },
    handler: (ctx) => service(ctx).list(),
  },
  // defineRoute types \`body\` from requestSchema: the kernel has validated it (strictly) before the handler runs.
  defineRoute({
    method: 'POST',
    path: '${base}',
    right: '${id}:write',
    summary: 'Create an item',
    tags,
    body: { required: true },
    requestSchema: ${c}InputSchema,
    responses: { 200: { description: 'The item', schema: ${c}ItemSchema }, 400: { description: 'Invalid item' }, 409: { description: 'Duplicate id, or too many items' } },
    handler: (ctx, { body }) => service(ctx).create(body),
  }),
  {
    method: 'GET',
    path: '${base}/:id',
    right: '${id}:read',
    summary: 'One item',
    tags,
    responses: { 200: { description: 'The item', schema: ${c}ItemSchema }, 404: { description: 'No such item' } },
    handler: (ctx) => service(ctx).get(pathParam(ctx, 'id')),
  },
];
`,
    [`test/${id}.http.test.ts`]: `import { afterEach, beforeEach, describe, expect, it } from 'vitest';
${testImports}import { ${c}Feature } from '../src/index.js';

let t: TestKernel;
beforeEach(async () => {
  t = await ${start};
});
afterEach(() => t.stop());

describe('${base}', () => {
  it('creates, lists and reads items', async () => {
    const created = await t.post('${base}', { _id: 'first', name: 'First' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ _id: 'first', name: 'First' });
    expect((await t.get('${base}')).body).toEqual([{ _id: 'first', name: 'First' }]);
    expect((await t.get('${base}/first')).body).toEqual({ _id: 'first', name: 'First' });
  });

  it('answers 404 for an unknown item, 400 for an invalid one, 409 for a duplicate or one too many', async () => {
    expect((await t.get('${base}/nothing')).status).toBe(404);
    const invalid = await t.post('${base}', { _id: 'x', name: 'X', extra: true });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ name: '' });
    await t.post('${base}', { _id: 'a', name: 'A' });
    expect((await t.post('${base}', { _id: 'a', name: 'again' })).status).toBe(409);
    await t.post('${base}', { _id: 'b', name: 'B' });
    expect((await t.post('${base}', { _id: 'c', name: 'C' })).status).toBe(409);
  });

  it('needs credentials', async () => {
    expect((await t.get('${base}', { auth: false })).status).toBe(401);
  });
});
`,
  };
  if (!workspace) {
    files['vitest.config.ts'] = `import { defineConfig } from 'vitest/config';

// tsyringe's constructor-parameter decorators are TypeScript's legacy ("experimental") decorators.
export default defineConfig({ oxc: { decorator: { legacy: true } }, test: { include: ['test/**/*.test.ts'] } });
`;
    files['.gitignore'] = 'node_modules\ndist\n';
  }
  return files;
}

/** Writes a new feature package with the shape every Vigie feature shares; refuses to overwrite anything. */
export function scaffoldFeature(options: ScaffoldOptions): ScaffoldResult {
  const { name } = options;
  if (!idPattern.test(name)) throw new Error(`feature name ${JSON.stringify(name)} must be kebab-case (a-z, 0-9, single dashes), e.g. asset-tags`);
  const root = workspaceRoot(options.cwd);
  const dir = resolve(options.cwd, options.dir ?? (root ? join(root, 'packages', name) : name));
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} exists and is not empty`);
  const dirRoot = workspaceRoot(dir);
  const mode = dirRoot !== undefined && dirname(dir) === join(dirRoot, 'packages') ? 'workspace' : 'standalone';
  const files = templates(name, mode);
  if (mode === 'workspace' && dirRoot) {
    files[relative(dir, join(dirRoot, '.changeset', `${name}-initial.md`))] = `---
"@vigie/${name}": minor
---

New package \`@vigie/${name}\`: describe the feature for its users.
`;
  }
  for (const [file, text] of Object.entries(files)) {
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text, { flag: 'wx' });
  }
  return { dir, mode, files: Object.keys(files).map((f) => join(basename(dir), f)) };
}
