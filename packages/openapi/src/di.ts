import { defineBridge } from '@vigie/kernel';
import { OpenApiService } from './openapi-service.js';

export const openApiBridge = defineBridge({ singletons: [OpenApiService] });
