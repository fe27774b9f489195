import { describe, expect, it } from 'vitest';
import { skeleton } from '../../src/accounts/confusables.ts';
import { acceptableName, nameKey, nameSkeleton } from '../../src/accounts/usernames.ts';

const same = (a: string, b: string) => expect(nameSkeleton(a)).toBe(nameSkeleton(b));
const differ = (a: string, b: string) => expect(nameSkeleton(a)).not.toBe(nameSkeleton(b));

describe('usernames', () => {
  it('refuses names outside 3-20 ASCII letters, digits, _ and -', () => {
    for (const name of [
      'ab',
      'a'.repeat(21),
      'with space',
      'dot.name',
      'émile',
      'аlice',
      'ａｌｉｃｅ',
      '',
    ]) {
      expect(acceptableName(name)).toEqual({ ok: false, reason: 'form' });
    }
    for (const name of ['abc', 'a'.repeat(20), 'Ann_Lee-2'])
      expect(acceptableName(name).ok).toBe(true);
  });

  it('refuses reserved words in any case and any look-alike spelling', () => {
    for (const name of [
      'admin',
      'ADMIN',
      'ADM1N',
      'system',
      'Computer',
      'C0MPUTER',
      'guest',
      'Guest',
      'r00t',
    ]) {
      expect(acceptableName(name), name).toEqual({ ok: false, reason: 'reserved' });
    }
    expect(acceptableName('admiral').ok).toBe(true);
  });

  it('keys a name without regard to case', () => {
    expect(nameKey('Alice')).toBe(nameKey('ALICE'));
    expect(nameKey('Alice')).not.toBe(nameKey('Alice2'));
  });

  it('gives look-alike names one skeleton: rn and m, 0 and O, l and 1 and I', () => {
    same('rnoon', 'moon');
    same('b0b', 'BOB');
    same('bob', 'BOB');
    same('l1ly', 'IILY');
    same('Ill', '1ll');
    same('Moon', 'Mo0n');
    differ('bob', 'rob');
  });

  it('meets a capital M with rn, whichever name came first (folding before the table and after)', () => {
    same('rnarta', 'Marta');
    same('MARTA', 'rnarta');
    same('Marta', 'marta');
    same('rnARTA', 'Marta');
    differ('moon', 'noon');
    differ('alice', 'alicia');
  });

  it("follows Unicode's table beyond ASCII: Cyrillic а is Latin a", () => {
    expect(skeleton('\u0430lice')).toBe('alice');
    expect(skeleton('p\u0430yp\u0430l')).toBe(skeleton('paypal'));
    // A default-ignorable character (a zero-width joiner) hides nothing.
    expect(skeleton('ali\u200dce')).toBe('alice');
  });
});
