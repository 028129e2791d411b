import { defineBridge } from '@vigie/kernel';
import { HelloService } from './hello-service.js';
import { VisitRepository } from './visit-repository.js';

/** The plugin's class graph (tsyringe): its routes, jobs and hooks resolve these classes. */
export const helloBridge = defineBridge({
  singletons: [VisitRepository, HelloService],
});
