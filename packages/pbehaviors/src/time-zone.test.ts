import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { TimeZone } from './time-zone.js';

describe('TimeZone offsets', () => {
  const zones = ['Europe/Paris', 'America/New_York', 'UTC', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'Africa/Casablanca', 'Asia/Kathmandu', 'Europe/Dublin', 'Africa/Monrovia'];

  it.each(zones)('are those of the zone data in %s, from local mean times to 2100, around transitions too', (name) => {
    const zone = TimeZone.named(name);
    const luxon = IANAZone.create(name);
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const from = Date.UTC(1850, 0, 1) / 1000;
    const to = Date.UTC(2100, 0, 1) / 1000;
    const instants = Array.from({ length: 400 }, () => Math.floor(from + random() * (to - from)));
    // Every quarter hour across 2024's transitions (and the last seconds before them).
    for (let t = Date.UTC(2024, 2, 9) / 1000; t < Date.UTC(2024, 3, 8) / 1000; t += 900) instants.push(t, t - 1);
    for (let t = Date.UTC(2024, 9, 1) / 1000; t < Date.UTC(2024, 10, 8) / 1000; t += 900) instants.push(t, t - 1);
    for (const t of instants) expect({ t, offset: zone.offsetAt(t) }).toEqual({ t, offset: luxon.offset(t * 1000) * 60 });
  });
});
