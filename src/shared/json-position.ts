/**
 * JSON.parse says where it failed as a character offset ("at position 1234"), or not at all ("Unexpected token
 * '}', ... is not valid JSON"); people editing a file need a line and column. Returns the parser's message (without
 * V8's quote of the text) with "(line L, column C)" added.
 */
const UNEXPECTED_END = /Unexpected end of JSON input/;

/** Whether text up to end holds an error before its last character (not just "the document stops here"). */
const failsBeforeEnd = (text: string, end: number): boolean => {
  try {
    JSON.parse(text.slice(0, end));
    return false;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (UNEXPECTED_END.test(message)) return false;
    const at = /at position (\d+)/.exec(message);
    return !at || Number(at[1]) < end;
  }
};

/** Offset of the first character no valid JSON could continue with: a prefix up to it only "ends early". */
function errorOffset(text: string, message: string): number {
  const m = /at position (\d+)/.exec(message);
  if (m) return Math.min(Number(m[1]), text.length);
  // A prefix that is the start of some valid document fails only with "unexpected end": binary search the first
  // prefix failing otherwise (about log2(length) parses).
  let lo = 0;
  let hi = text.length;
  if (!failsBeforeEnd(text, hi)) return text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsBeforeEnd(text, mid + 1)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function jsonErrorMessage(text: string, err: unknown): string {
  // V8 quotes the text after 'Unexpected token': drop the quote, the position is said below.
  const message = (err instanceof Error ? err.message : String(err)).replace(/, (\.\.\.)?"[\s\S]*" is not valid JSON$/, '');
  const pos = errorOffset(text, message);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `${message} (line ${line}, column ${column})`;
}
