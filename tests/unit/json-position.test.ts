import { describe, expect, it } from 'vitest';
import { jsonErrorMessage } from '../../src/shared/json-position';

const messageOf = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (err) {
    return jsonErrorMessage(text, err);
  }
  throw new Error('parsed');
};

describe('JSON syntax errors name a line and column', () => {
  it('for a token V8 reports without a position', () => {
    expect(messageOf('{\n  "a": 1,\n  "b": }')).toBe("Unexpected token '}' (line 3, column 8)");
  });
  it('for an error V8 reports as an offset', () => {
    expect(messageOf('{\n "a": 1\n "b": 2}')).toBe("Expected ',' or '}' after property value in JSON at position 11 (line 3, column 2)");
  });
  it('for a file that stops early', () => {
    expect(messageOf('{ "entries": [')).toBe('Unexpected end of JSON input (line 1, column 15)');
  });
  it('for a bad literal on a later line', () => {
    expect(messageOf('{\n  "id": "x",\n  "title": tru\n}')).toMatch(/^Unexpected token .* \(line 3, column 15\)$/s);
  });
});
