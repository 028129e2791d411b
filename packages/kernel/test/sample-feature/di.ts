import { defineBridge } from '../../src/di/bridge.js';
import { GreetingPolicy } from './greeting-policy.js';

export const sampleBridge = defineBridge({ singletons: [GreetingPolicy] });
