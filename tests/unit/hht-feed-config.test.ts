import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

describe('HHT_FEED', () => {
  it('is on by default and off when asked', () => {
    expect(loadConfig({}).feed).toBe(true);
    expect(loadConfig({ HHT_FEED: 'off' }).feed).toBe(false);
  });

  it('refuses anything else with one clear line', () => {
    expect(() => loadConfig({ HHT_FEED: 'maybe' })).toThrow(ConfigError);
    try {
      loadConfig({ HHT_FEED: 'maybe' });
    } catch (err) {
      expect((err as ConfigError).problems).toEqual(['HHT_FEED must be "on" or "off", got "maybe"']);
    }
  });
});
