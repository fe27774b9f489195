/**
 * What the server stores and shows other people as text (chat lines, player names, uploaded
 * decks' names) is plain text on one line: this is the one rule, checked on both sides.
 */

// Control characters (newlines too), the line and paragraph separators, and the bidirectional
// overrides that would make a text read other than it is written.
const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
// Anything that looks like a tag, a comment or an entity.
const MARKUP = /<\s*[/!?a-zA-Z]|&[#a-zA-Z0-9]+;/;
// Tag characters spell ASCII that nobody sees ("a" + tags "AB" shows as "a"): hidden text.
// Their one use is an emoji tag sequence, a black flag with a subdivision's code in tags and the
// cancel tag (England's, Scotland's and Wales's flags); TAG_SEQUENCE spells that form.
const TAG = /[\u{E0000}-\u{E007F}]/u;
const TAG_SEQUENCE =
  /\u{1F3F4}[\u{E0061}-\u{E007A}]{2}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,4}\u{E007F}/gu;
// What shows nothing on its own: spaces, format and other ignorable characters (zero-width
// spaces and joiners, fillers, tags, variation selectors), combining marks, the Braille blank.
const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cf}\p{M}\u2800]/gu;
/** Combining marks one character may carry: scripts need up to three or four, "zalgo" piles more. */
const MAX_COMBINING_RUN = 4;
const MARK_PILE = new RegExp(`\\p{M}{${MAX_COMBINING_RUN + 1},}`, 'u');

export type PlainTextProblem =
  /** Nothing visible: empty, or spaces and invisible characters only. */
  | 'blank'
  /** Control characters, separators, direction overrides, markup, piled-up marks or tags outside a flag. */
  | 'notPlain';

/** Why a text is not plain visible text on one line, or null when it is. */
export function plainTextProblem(text: string): PlainTextProblem | null {
  if (CONTROL.test(text) || MARKUP.test(text) || MARK_PILE.test(text)) return 'notPlain';
  if (TAG.test(text.replace(TAG_SEQUENCE, ''))) return 'notPlain';
  if (text.replace(INVISIBLE, '').length === 0) return 'blank';
  return null;
}
