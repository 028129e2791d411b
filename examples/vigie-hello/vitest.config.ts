import { defineConfig } from 'vitest/config';

// tsyringe's constructor-parameter decorators are TypeScript's legacy ("experimental") decorators.
export default defineConfig({ oxc: { decorator: { legacy: true } }, test: { include: ['test/**/*.test.ts'] } });
