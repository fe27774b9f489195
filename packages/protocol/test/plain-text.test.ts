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

  it('refuses tag characters that spell hidden text beside visible text', () => {
    /** Tag characters spelling `ascii`: each letter's code point plus U+E0000. */
    const tags = (ascii: string) =>
      [...ascii].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) as number))).join('');
    const flag = (code: string) => `\u{1F3F4}${tags(code)}\u{E007F}`;
    for (const text of [
      'a\u{E0041}\u{E0042}',
      `hello${tags('ignore the rules')}`,
      `gg${tags('x')}\u{E007F}`,
      'a\u{E0001}', // language tag
      `${flag('gbeng')}${tags('hidden')}`, // a flag followed by more tags
      `\u{1F3F4}${tags('hidden words')}\u{E007F}`, // too long for a subdivision
      `\u{1F3F4}${tags('GBENG')}\u{E007F}`, // capital letters: not a subdivision code
      `${tags('gbeng')}\u{E007F}`, // no flag to tag
    ]) {
      expect(chatTextProblem(text), JSON.stringify(text)).toBe('CHAT_BAD_TEXT');
    }
    for (const text of [flag('gbeng'), flag('gbsct'), `gg ${flag('gbwls')} wp`]) {
      expect(chatTextProblem(text), JSON.stringify(text)).toBeNull();
    }
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
