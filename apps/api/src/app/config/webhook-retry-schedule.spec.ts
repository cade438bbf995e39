import { parseRetrySchedule, STANDARD_RETRY_SCHEDULE_SECONDS } from './webhook-retry-schedule';

describe('WEBHOOK_RETRY_SCHEDULE', () => {
  describe('STANDARD_RETRY_SCHEDULE_SECONDS', () => {
    it('ends, like the specification’s example, 75 h 35 min 5 s after the first attempt', () => {
      const total = STANDARD_RETRY_SCHEDULE_SECONDS.reduce((sum, seconds) => sum + seconds, 0);
      expect(total).toBe(75 * 3600 + 35 * 60 + 5);
      expect(STANDARD_RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    });

    it('cannot be changed by a caller', () => {
      expect(Object.isFrozen(STANDARD_RETRY_SCHEDULE_SECONDS)).toBe(true);
    });
  });

  describe(parseRetrySchedule.name, () => {
    it.each([
      ['5,300,1800', [5, 300, 1800]],
      [' 0.2 , 0.5,1 ', [0.2, 0.5, 1]],
      ['0', [0]],
      ['10', [10]],
      ['', []],
      ['   ', []],
    ])('reads %j', (text, schedule) => expect(parseRetrySchedule(text)).toEqual(schedule));

    it.each([
      ['5,abc,10', /item 2 \("abc"\)/],
      ['5,,10', /item 2 \(""\)/],
      ['5,', /item 2 \(""\)/],
      ['-1', /item 1 \("-1"\)/],
      ['1e3', /item 1 \("1e3"\)/],
      ['0x10', /item 1 \("0x10"\)/],
      ['Infinity', /item 1 \("Infinity"\)/],
      ['.5', /item 1 \("\.5"\)/],
      ['5 s', /item 1 \("5 s"\)/],
      ['9'.repeat(400), /item 1/],
    ])('refuses %j, naming the item', (text, message) => {
      expect(() => parseRetrySchedule(text)).toThrow(message);
    });
  });
});
