import { authFeature } from '@vigie/auth';
import type { AnyFeature, Clock, ConfigOverrides, Logger, StoreFactory } from '@vigie/kernel';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { sqliteStoreFactory } from '@vigie/store-sqlite';
import { testAdmin, testPasswordHashCost } from './test-admin.js';

export interface FeatureTestOptions {
  /** The features under test (the auth feature is always added). */
  features: readonly AnyFeature[];
  config?: ConfigOverrides;
  env?: Readonly<Record<string, string>>;
  clock?: Clock;
  /** Reuse an installation directory (restart tests); a fresh temporary one otherwise. */
  installDir?: string;
  /** Another store than the embedded one (e.g. one that fails on purpose). */
  store?: StoreFactory;
  /** A logger to inspect what the features log. */
  logger?: Logger;
  /** Whether answers are checked against their routes' response schemas (true by default: `stop()` fails on a mismatch). */
  checkResponses?: boolean;
}

/**
 * Starts the features under test as the reference server would run them: the embedded SQLite store in a
 * temporary installation, the real auth feature, a free loopback port. Requests authenticate as `testAdmin`. Passwords
 * are hashed at the lowest `[auth] password_hash_cost` (`testPasswordHashCost`; `env` may set another).
 */
export function startFeatureTest(options: FeatureTestOptions): Promise<TestKernel> {
  return startTestKernel({
    features: [authFeature, ...options.features],
    store: options.store ?? sqliteStoreFactory(),
    env: { VIGIE_ADMIN_USER: testAdmin.user, VIGIE_ADMIN_PASSWORD: testAdmin.password, ...testPasswordHashCost, ...options.env },
    users: { [testAdmin.user]: testAdmin.password },
    config: options.config,
    clock: options.clock,
    installDir: options.installDir,
    logger: options.logger,
    checkResponses: options.checkResponses,
  });
}

export { testAdmin, testPasswordHashCost };
export type { TestKernel, TestResponse, RequestOptions } from '@vigie/kernel-testing';
export { errorBody, expectError, oddValues, wrongTypes } from './http-answers.js';
export { serveRestartFixture, startEnginesServer, type EnginesServer } from './restart.js';
export { eventually, patienceMs, waitFor } from './wait.js';
