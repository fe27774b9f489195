import type { Page } from 'playwright-core';

/** A text or table that does not fit its box, described for a failure message. */
export interface Overflow {
  what: string;
  text: string;
  by: number;
}

/**
 * Every element of the page whose content is wider than its own box, or that sticks out of
 * its parent's box (cut off or spilling over), unless the parent scrolls by design. Read from
 * the page's layout, not by eye. A string, so no bundler helper leaks into the page.
 */
const FIND_OVERFLOWS = `(() => {
  const out = [];
  const hidden = (el) => el.closest('.sr-only, [aria-hidden="true"] .sr-only');
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const describe = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  for (const el of document.querySelectorAll('body *')) {
    if (hidden(el) || el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'OPTION') continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || el.getClientRects().length === 0) continue;
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (ownText && !scrolls(el) && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      out.push({ what: describe(el), text: el.textContent.trim().slice(0, 60), by: el.scrollWidth - el.clientWidth });
    }
    const parent = el.parentElement;
    if (!parent || scrolls(parent) || style.position === 'fixed') continue;
    if (!ownText && el.tagName !== 'TABLE') continue;
    const r = el.getBoundingClientRect();
    const p = parent.getBoundingClientRect();
    const by = Math.max(r.right - p.right, p.left - r.left);
    if (by > 1 && r.width > 0) out.push({ what: describe(el) + ' in ' + describe(parent), text: el.textContent.trim().slice(0, 60), by: Math.round(by) });
  }
  return out;
})()`;

export const overflows = (page: Page): Promise<Overflow[]> => page.evaluate(FIND_OVERFLOWS);

/**
 * The smallest size, in CSS px as rendered (font size times the table's zoom), of the card
 * names and command values on the table, and whether the whole table is in the frame unscrolled.
 */
export const tableLegibility = (
  page: Page,
): Promise<{
  cards: number;
  name: number;
  command: number;
  zoom: string;
  whole: boolean;
  inWindow: boolean;
}> =>
  page.evaluate(`(() => {
    const px = (sel) => [...document.querySelectorAll(sel)].map((el) => {
      const scale = el.getBoundingClientRect().width / el.offsetWidth;
      return Number.parseFloat(getComputedStyle(el).fontSize) * scale;
    });
    const frame = document.querySelector('.board-frame');
    const sizer = frame.querySelector('.board-sizer');
    const f = frame.getBoundingClientRect();
    return {
      cards: document.querySelectorAll('.board-grid [data-card]').length,
      name: Math.min(...px('.board-grid .card-name')),
      command: Math.min(...px('.board-grid .card-command')),
      zoom: document.querySelector('.zoom-level').textContent,
      whole: sizer.offsetWidth <= frame.clientWidth + 1 && sizer.offsetHeight <= frame.clientHeight + 1
        && f.height <= innerHeight,
      inWindow: f.height <= innerHeight,
    };
  })()`);

/**
 * Names on the table, in the hand and in the players' panels that a line break cuts inside a
 * word ("Euro|pe"): breaks at spaces, hyphens and soft hyphens are words' own. Read letter by
 * letter from the layout.
 */
export const wordsBroken = (page: Page): Promise<string[]> =>
  page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('.card-band .region-name, .card-name, .aftermath-card')) {
      if (el.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest('.sr-only')) continue;
        const text = node.textContent;
        let previous = null;
        for (let i = 0; i < text.length; i++) {
          if (/[\\s\\u00ad-]/.test(text[i])) { previous = null; continue; }
          // After a break at a soft hyphen, Chromium places the next letter's box on the line before.
          if (text[i - 1] === '\\u00ad') continue;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const top = range.getBoundingClientRect().top;
          if (previous !== null && top - previous > 2) out.push(el.textContent.trim() + ' (after ' + text.slice(0, i) + ')');
          previous = top;
        }
      }
    }
    return out;
  })()`);
