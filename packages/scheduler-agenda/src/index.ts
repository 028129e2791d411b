export { AgendaScheduler, agendaSchedulerFactory, type AgendaSchedulerOptions } from './agenda-scheduler.js';
export { JobStoreRepository, jobStoreBackend } from './agenda-backend.js';
