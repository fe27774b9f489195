import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { chatTextProblem, MAX_CHAT_CHARS, playerNameSchema } from '../src/index.ts';

const invisible = [
  '\u200B', // zero width space
  '\u200C', // zero width non-joiner
  '\u200D', // zero width joiner
  '\u2060', // word joiner
  '\uFEFF', // byte order mark
  '\u00AD', // soft hyphen
  '\u034F', // combining grapheme joiner
  '\u180E', // Mongolian vowel separator
  '\u3164', // Hangul filler
  '\uFFA0', // halfwidth Hangul filler
  '\u2800', // Braille blank
  '\u{E0020}', // tag space
  '\uFE0F', // variation selector
];

describe('the chat filter', () => {
  it('refuses a line of invisible characters only, alone or mixed with spaces and marks', () => {
    for (const c of invisible) {
      expect(chatTextProblem(c.repeat(3)), `U+${c.codePointAt(0)?.toString(16)}`).toBe(
        'CHAT_BAD_TEXT',
      );
    }
    expect(chatTextProblem(` ${invisible.join(' ')} \u0301 `)).toBe('CHAT_BAD_TEXT');
  });

  it('refuses the line and paragraph separators anywhere in a line', () => {
    expect(chatTextProblem('one\u2028two')).toBe('CHAT_BAD_TEXT');
    expect(chatTextProblem('one\u2029two')).toBe('CHAT_BAD_TEXT');
  });

  it('refuses runs of more than four combining marks (stacked "zalgo" text)', () => {
    expect(chatTextProblem(`he${'\u0301\u0302\u0303\u0304\u0305'}llo`)).toBe('CHAT_BAD_TEXT');
    expect(chatTextProblem(`Z${'\u0336'.repeat(40)}`)).toBe('CHAT_BAD_TEXT');
  });

  it('still takes plain text in any script, with accents, emoji and their joiners', () => {
    for (const text of [
      'Good game!',
      'Cześć, dobra gra',
      'Việt Nam',
      'e\u0301te\u0301', // decomposed accents
      'नमस्ते', // Devanagari with its signs
      'ภาษาไทย', // Thai with vowel and tone marks
      '👩‍👩‍👧 🏴󠁧󠁢󠁥󠁮󠁧󠁿 1️⃣', // joiners, tag sequence, keycap
      '2 < 3 & 4 > 1',
      'x'.repeat(MAX_CHAT_CHARS),
    ]) {
      expect(chatTextProblem(text), text).toBeNull();
    }
  });
});

describe('player names', () => {
  const problem = (name: string) => {
    const parsed = z.safeParse(playerNameSchema, name);
    return parsed.success ? null : parsed.error.issues[0]?.message;
  };

  it('are plain text, by the same rule as chat lines', () => {
    expect(problem('Ann')).toBeNull();
    expect(problem('Zoë 🙂')).toBeNull();
    for (const bad of [
      '<b>Ann</b>',
      'Ann&amp;',
      'A\u202Enn',
      'A\u2028nn',
      '\u200B\u200B',
      'Z\u0336\u0336\u0336\u0336\u0336',
    ]) {
      expect(problem(bad), bad).toBeTruthy();
    }
  });
});
