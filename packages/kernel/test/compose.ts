import { memoryStoreFactory } from '@vigie/documents';
import { koaHttpServer } from '@vigie/kernel-http';
import { agendaSchedulerFactory } from '@vigie/scheduler-agenda';
import type { VigieError } from '../src/errors.js';
import type { AnyFeature } from '../src/feature.js';
import { Kernel } from '../src/kernel.js';
import { createLogger } from '../src/log.js';
import type { ConfigOverrides } from '../src/config/ini.js';

/** The error a composition fails its boot checks with (the test fails when it composes). */
export function compose(features: readonly AnyFeature[], overrides: ConfigOverrides = {}): VigieError {
  try {
    new Kernel({ features, installDir: '/nonexistent-vigie', env: {}, configOverrides: overrides, store: memoryStoreFactory(), scheduler: agendaSchedulerFactory(), http: koaHttpServer(), logger: createLogger({ level: 'silent' }) });
  } catch (err) {
    return err as VigieError;
  }
  throw new Error('composition unexpectedly succeeded');
}
