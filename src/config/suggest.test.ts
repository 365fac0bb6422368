import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from './suggest.js';

const KNOWN = [
  'provider',
  'baseUrl',
  'apiKey',
  'model',
  'maxSteps',
  'requestTimeoutMs',
  'headersTimeoutMs',
  'toolTimeoutMs',
  'lang',
  'workspace',
];

describe('closestName', () => {
  it('finds the name a typo, another spelling or the environment name meant', () => {
    expect(closestName('modle', KNOWN)).toBe('model');
    expect(closestName('provder', KNOWN)).toBe('provider');
    expect(closestName('baseURL', KNOWN)).toBe('baseUrl');
    expect(closestName('api_key', KNOWN)).toBe('apiKey');
    expect(closestName('ZHIXING_MAX_STEPS', KNOWN)).toBe('maxSteps');
    expect(closestName('requestTimeout', KNOWN)).toBe('requestTimeoutMs');
    expect(closestName('key', KNOWN)).toBe('apiKey');
  });

  it('guesses nothing when nothing is close, or when two names are equally close', () => {
    expect(closestName('colour', KNOWN)).toBeUndefined();
    expect(closestName('x', KNOWN)).toBeUndefined();
    expect(closestName('timeout', KNOWN)).toBeUndefined();
    expect(closestName('', KNOWN)).toBeUndefined();
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('modle', 'model')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
