import { defineBridge } from '@vigie/kernel';
import { ConsoleAssets } from './console-assets.js';
import { SavedFilters } from './saved-filters.js';

export const consoleBridge = defineBridge({ singletons: [ConsoleAssets, SavedFilters] });
