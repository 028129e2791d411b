import { extensionPointRef } from '@vigie/kernel';

/** A page a plugin adds to the console, shown at `/x/<path>` and in the navigation. */
export interface ConsolePage {
  /** One path segment: lower-case letters, digits and dashes. */
  path: string;
  title: string;
}

/** A column or an action a plugin adds to the alarm list. */
export interface ConsoleAlarmExtra {
  /** Unique within the extension; the module's `alarmColumns`/`alarmActions` entry of the same id renders or runs it. */
  id: string;
  label: string;
}

/**
 * What a server feature contributes to the console: data the console reads from `GET /api/v2/console/extensions`,
 * and the URL of an ES module (served by the feature, same origin) whose default export implements it.
 */
export interface ConsoleExtension {
  /** Names the extension in the navigation and in error messages; usually the feature id. */
  id: string;
  /** Absolute path of the ES module on this server. */
  module: string;
  pages?: ConsolePage[];
  alarmColumns?: ConsoleAlarmExtra[];
  alarmActions?: ConsoleAlarmExtra[];
}

/** Console extensions contributed by other features (`f.extend(consoleExtensionsPoint, () => extension)`). */
export const consoleExtensionsPoint = extensionPointRef<ConsoleExtension>('console.extensions');
