// The texts of the immunization cards (catalogues/immunization-card-texts.tsv): the shipped file holds every key in
// en, af and ng with {dose} and {date}; a file missing a key or a placeholder is refused, naming what is wrong.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CARD_TEXTS_FILE, cardTextsOf } from './immunization-cards';

describe('immunization card texts', () => {
  it('ship every key in every language with {dose} and {date}', () => {
    const texts = cardTextsOf(readFileSync(CARD_TEXTS_FILE, 'utf8'));
    expect(Object.keys(texts).sort()).toEqual(['IMMUNIZATION_DUE', 'IMMUNIZATION_OVERDUE']);
    expect(texts.IMMUNIZATION_OVERDUE.af).toContain('agterstallig');
  });

  it('refuse a missing key and a translation without its placeholders', () => {
    const header = 'key\ten\taf\tng\n';
    expect(() => cardTextsOf(`${header}IMMUNIZATION_DUE\t{dose} {date}\t{dose} {date}\t{dose} {date}\n`)).toThrow(
      /missing IMMUNIZATION_OVERDUE/,
    );
    expect(() =>
      cardTextsOf(
        `${header}IMMUNIZATION_DUE\t{dose} {date}\t{dose} {date}\t{dose} {date}\nIMMUNIZATION_OVERDUE\t{dose} {date}\t{dose}\t{dose} {date}\n`,
      ),
    ).toThrow(/IMMUNIZATION_OVERDUE af must use/);
  });
});
