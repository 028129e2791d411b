import { describe, expect, it } from 'vitest';
import { HotCounter, HotHistogram } from './hot-path-metrics.js';

describe('hot-path metric families', () => {
  it('count per label values and escape them as the text format requires', () => {
    const counter = new HotCounter('c_total', 'help text', ['route', 'status']);
    counter.inc('/a', '200');
    counter.inc('/a', '200');
    counter.inc('/b "x"\\\n', '404');
    expect(counter.render().split('\n')).toEqual([
      '# HELP c_total help text',
      '# TYPE c_total counter',
      'c_total{route="/a",status="200"} 2',
      'c_total{route="/b \\"x\\"\\\\\\n",status="404"} 1',
    ]);
  });

  it('cumulate histogram buckets, with +Inf, sum and count', () => {
    const histogram = new HotHistogram('h', 'help', ['op'], [0.1, 1]);
    for (const value of [0.05, 0.1, 0.5, 3]) histogram.observe(value, 'find');
    expect(histogram.render().split('\n').slice(2)).toEqual([
      'h_bucket{le="0.1",op="find"} 2',
      'h_bucket{le="1",op="find"} 3',
      'h_bucket{le="+Inf",op="find"} 4',
      'h_sum{op="find"} 3.65',
      'h_count{op="find"} 4',
    ]);
  });
});
