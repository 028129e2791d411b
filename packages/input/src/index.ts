export {
  validate,
  durationPattern,
  durationSeconds,
  durationSetting,
  durationWithUnitSchema,
  durationWithUnitSeconds,
  type CheckOptions,
  type DurationWithUnit,
} from './validation.js';
export {
  inputBounds,
  idField,
  nameField,
  textField,
  longTextField,
  listField,
  tooLongMessage,
  tooManyMessage,
  assertWithinInputBounds,
} from './input-bounds.js';
export { requestBody, pathParam } from './route-input.js';
