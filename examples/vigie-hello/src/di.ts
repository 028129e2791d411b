import { defineBridge } from '@vigie/kernel';
import { HelloService } from './hello-service.js';
import { VisitRepository } from './visit-repository.js';

/** The plugin's class graph (tsyringe) and what awilix sees of it. */
export const helloBridge = defineBridge({
  singletons: [VisitRepository, HelloService],
  exports: { helloService: HelloService },
});
