import { afterEach, expect, it } from 'vitest';
import { healthcheckFeature } from '@vigie/healthcheck';
import { ManualClock } from '@vigie/kernel';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { PipelineRunner, eventsFeature } from '../src/index.js';
import { check, recordingFeature } from '../src/testing.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

it('reports a lagging pipeline in the healthcheck’s engines entry: too many waiting events, or the oldest too old', async () => {
  const clock = new ManualClock(Date.UTC(2025, 0, 1));
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const recorder = recordingFeature([{ name: 'held', order: 500, act: () => held }]);
  t = await startFeatureTest({
    features: [eventsFeature, healthcheckFeature, recorder.feature],
    clock,
    config: { 'webserver.conf': { engine: { max_queue_depth: '2', max_event_age: '30s' } } },
  });
  const engines = async () => ((await t?.get('/api/v2/healthcheck'))?.body as { engines: string }).engines;
  expect(await engines()).toBe('');

  await t.post('/api/v2/event', [check(), check(), check()]);
  expect(await engines()).toBe('the event pipeline is lagging: 3 events wait to be processed (limit 2)');
  clock.advance(45_000);
  expect(await engines()).toBe(
    'the event pipeline is lagging: 3 events wait to be processed (limit 2); the event pipeline is lagging: the oldest waiting event was accepted 45s ago (limit 30s)',
  );

  release();
  await recorder.waitFor('held', 3);
  await t.kernel.scope('events').resolve(PipelineRunner).whenIdle();
  expect(await engines()).toBe('');
});

it('reports a stopped pipeline', async () => {
  t = await startFeatureTest({ features: [eventsFeature, healthcheckFeature] });
  await t.kernel.scope('events').resolve(PipelineRunner).stop();
  expect(((await t.get('/api/v2/healthcheck')).body as { engines: string }).engines).toBe('the event pipeline is stopped');
});

it('counts the events of senders held back by max_waiting_events as waiting', async () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const recorder = recordingFeature([{ name: 'held', order: 500, act: () => held }]);
  t = await startFeatureTest({
    features: [eventsFeature, healthcheckFeature, recorder.feature],
    config: { 'webserver.conf': { engine: { max_waiting_events: '2', max_queue_depth: '3' } } },
  });
  const engines = async () => ((await t?.get('/api/v2/healthcheck'))?.body as { engines: string }).engines;
  await t.post('/api/v2/event', [check(), check()]);
  expect(await engines()).toBe('');
  // The pipeline is full: these two wait to be accepted, their sender's answer with them.
  const waitingSender = t.post('/api/v2/event', [check({ output: 'later' }), check({ output: 'later' })]);
  let answer = '';
  for (let attempt = 0; attempt < 200 && answer === ''; attempt++) {
    answer = await engines();
    if (answer === '') await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(answer).toBe('the event pipeline is lagging: 4 events wait to be processed (limit 3)');
  release();
  expect((await waitingSender).status).toBe(200);
  await recorder.waitFor('held', 4);
});
