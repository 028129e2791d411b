import { defineBridge } from '@vigie/kernel';
import { EngineSettingsService } from './engine-settings.js';

/** The events feature's class graph (tsyringe) and what awilix sees of it. */
export const eventsBridge = defineBridge({
  singletons: [EngineSettingsService],
  exports: { engineSettings: EngineSettingsService },
});
