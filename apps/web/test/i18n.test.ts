import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DECK } from '@iron-curtain/game';
import { errorCodes } from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';
import { en, type Resources } from '../src/i18n/en.ts';
import { clientErrorCodes, errorWords } from '../src/i18n/errorWords.ts';
import { GameWords, withoutSoftHyphens } from '../src/i18n/gameWords.ts';
import { allResources, i18n, LANGUAGES, setLanguage } from '../src/i18n/i18n.ts';

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every leaf key as a dotted path. */
function leaves(resources: Resources, prefix = ''): string[] {
  return Object.entries(resources).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leaves(value, `${prefix}${key}.`),
  );
}

/** Keys with plural suffixes folded: `watching_one` and `watching_other` are both `watching#`. */
const baseKeys = (keys: string[]) => new Set(keys.map((k) => k.replace(PLURAL, '#')));

describe('the error texts', () => {
  it('give every error code of the protocol and the page a sentence, not the raw message', () => {
    const texts = en.errors as Resources;
    const missing = [...errorCodes, ...clientErrorCodes].filter(
      (code) => typeof texts[code] !== 'string',
    );
    expect(missing).toEqual([]);
  });

  it('show the text of the code in every language, never the server’s own words', async () => {
    const all = await allResources();
    for (const language of LANGUAGES) {
      await setLanguage(language, { remember: false });
      const said = errorWords(i18n.t, {
        code: 'WAITING_FOR_OPPONENT',
        message: 'waiting for the second player',
      });
      expect(said).toBe((all[language].errors as Resources).WAITING_FOR_OPPONENT);
      expect(errorWords(i18n.t, { code: 'NO_SUCH_CODE', message: 'raw' })).toBe(
        (all[language].errors as Resources).generic,
      );
    }
    await setLanguage('en', { remember: false });
  });
});

describe('a handover code’s refusals', () => {
  const refusals = ['HANDOVER_UNKNOWN', 'HANDOVER_USED', 'HANDOVER_EXPIRED', 'HANDOVER_TRIED_OUT'];

  it('each read in words of their own in every language, none the missing match’s', async () => {
    const all = await allResources();
    for (const language of LANGUAGES) {
      await setLanguage(language, { remember: false });
      const said = refusals.map((code) => errorWords(i18n.t, { code, message: 'raw' }));
      const errors = all[language].errors as Resources;
      expect(said).toEqual(refusals.map((code) => errors[code]));
      const noMatch = errorWords(i18n.t, { code: 'NOT_FOUND', message: 'raw' });
      expect(new Set([...said, noMatch, errors.generic]).size, language).toBe(refusals.length + 2);
    }
    await setLanguage('en', { remember: false });
  });
});

describe('the translations', () => {
  it('give every language exactly the keys English has', async () => {
    const all = await allResources();
    const english = baseKeys(leaves(en));
    for (const language of LANGUAGES) {
      const own = baseKeys(leaves(all[language]));
      const missing = [...english].filter((k) => !own.has(k));
      const extra = [...own].filter((k) => !english.has(k));
      expect({ language, missing, extra }).toEqual({ language, missing: [], extra: [] });
    }
  });

  it('give every counted text each plural form its language needs', async () => {
    const all = await allResources();
    for (const language of LANGUAGES) {
      const keys = new Set(leaves(all[language]));
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      const plurals = [...keys].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, ''));
      for (const base of new Set(plurals)) {
        const absent = categories.filter((c) => !keys.has(`${base}_${c}`));
        expect({ language, base, absent }).toEqual({ language, base, absent: [] });
      }
    }
  });

  it('count cubes and cards with the plural form of the number: never "1 cubes"', () => {
    const counted = /\{\{count\}\}( \{\{\w+\}\})? (cubes|cards)\b/;
    const singularMissing = leaves(en).filter((key) => {
      const text = key
        .split('.')
        .reduce<Resources | string>((r, k) => (r as Resources)[k] as Resources | string, en);
      return typeof text === 'string' && counted.test(text) && !PLURAL.test(key);
    });
    expect(singularMissing).toEqual([]);
    expect(i18n.getFixedT('en')('prompt.commandUpTo', { count: 1 })).toBe(
      'Command: place up to 1 cube',
    );
  });

  it('keep each text’s placeholders in every language', async () => {
    const all = await allResources();
    const englishLeaves = new Map<string, string>();
    const walk = (r: Resources, prefix: string, into: Map<string, string>) => {
      for (const [k, v] of Object.entries(r)) {
        if (typeof v === 'string') into.set(`${prefix}${k}`.replace(PLURAL, ''), v);
        else walk(v, `${prefix}${k}.`, into);
      }
    };
    walk(en, '', englishLeaves);
    const holes = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const language of LANGUAGES) {
      const own = new Map<string, string>();
      walk(all[language], '', own);
      for (const [key, text] of own) {
        const english = englishLeaves.get(key) ?? '';
        // Plural forms may leave the number out ("one card"); every other placeholder stays.
        const want = holes(english).filter((h) => h !== 'count');
        const have = holes(text).filter((h) => h !== 'count');
        expect({ language, key, have }).toEqual({ language, key, have: want });
      }
    }
  });

  it('are typed from the English texts, so that an unknown key does not compile', () => {
    // @ts-expect-error: no such key. Should t() accept any string again, the type check fails here.
    expect(i18n.t('seatPanels.noSuchKey')).toBe('seatPanels.noSuchKey');
  });

  it('have an English text for every key the source code names', () => {
    const src = path.resolve(import.meta.dirname, '../src');
    const files = fs
      .readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('i18n'));
    const english = baseKeys(leaves(en));
    const unknown: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([\w.-]+)'/g)) {
        const key = m[1] as string;
        if (!english.has(key) && !english.has(`${key}#`)) unknown.push(`${file}: ${key}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});

/**
 * The longest run of letters the narrowest hand card's band (a phone at 390 px, 0.75rem bold: about
 * 60 px) holds on one line, measured in Chromium: six letters fit ("Wschód" 53 px), seven may not
 * ("Ameryka" 59.7 px broke as "Ameryk / a").
 */
const LONGEST_UNBROKEN_RUN = 6;

describe('the region names', () => {
  it('break a word too long for a phone card band only at a soft hyphen, never at an arbitrary letter', async () => {
    const all = await allResources();
    for (const language of LANGUAGES) {
      const names = Object.values(all[language].regions as Resources) as string[];
      const tooLong = names
        .flatMap((name) => name.split(/[\s\-\u00AD]+/))
        .filter((run) => [...run].length > LONGEST_UNBROKEN_RUN);
      expect({ language, tooLong }).toEqual({ language, tooLong: [] });
    }
  });

  it('give back the plain name without soft hyphens, in text, labels and comparisons', async () => {
    const all = await allResources();
    const plain = { de: 'Mittelamerika', fr: 'Amérique centrale', pl: 'Ameryka Środkowa' } as const;
    for (const [language, name] of Object.entries(plain)) {
      const hyphenated = (all[language as keyof typeof plain].regions as Resources)[
        'central-america'
      ] as string;
      expect(hyphenated).toContain('\u00AD');
      expect(withoutSoftHyphens(hyphenated)).toBe(name);
      await setLanguage(language as keyof typeof plain);
      expect(new GameWords(i18n.t).regionName(DEFAULT_DECK, 'central-america')).toBe(name);
    }
    await setLanguage('en');
  });
});
