import { defineBridge } from '@vigie/kernel';
import { ConsoleAssets } from './console-assets.js';

export const consoleBridge = defineBridge({ singletons: [ConsoleAssets] });
