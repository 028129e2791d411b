export { liveUpdatesFeature } from './feature.js';
export type { AlarmNotice } from './alarm-notice.js';
