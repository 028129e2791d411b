import type { ConsoleExtension } from '@vigie/console';

/** Where the plugin serves its console module (a declared route, authenticated like every other). */
export const consoleModulePath = '/api/v2/hello/console.js';

/** What the plugin adds to the console: a page, an alarm-list column and an action on the selected alarms. */
export const helloConsoleExtension: ConsoleExtension = {
  id: 'hello',
  module: consoleModulePath,
  pages: [{ path: 'hello', title: 'Hello' }],
  alarmColumns: [{ id: 'greeting', label: 'Greeting' }],
  alarmActions: [{ id: 'visit', label: 'Record a visit' }],
};

/**
 * The module itself: plain JavaScript with no framework, so it needs no build step. Its default export implements
 * what the extension declares (see the console's README): the page is mounted into an element, the column is a
 * function of the alarm, the action runs on the selected alarms and answers the message shown.
 */
export const helloConsoleModule = `export default {
  pages: {
    hello(element, host) {
      const heading = document.createElement('p');
      element.append(heading);
      host.api('/api/v2/hello').then((hello) => {
        heading.textContent = hello.greeting + ' — ' + hello.visits + ' visits recorded.';
      });
    },
  },
  alarmColumns: {
    greeting: (alarm) => 'hello ' + alarm.v.component,
  },
  alarmActions: {
    async visit(alarms, host) {
      for (const alarm of alarms) {
        await host.api('/api/v2/hello/visits', { method: 'POST', body: JSON.stringify({ name: alarm.v.component }) });
      }
      return alarms.length + ' visit(s) recorded';
    },
  },
};
`;
