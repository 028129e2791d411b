export { helloFeature, helloFeature as default } from './feature.js';
export { HelloService } from './hello-service.js';
export { helloConfigSchema, type HelloConfig, type Visit } from './schemas.js';
