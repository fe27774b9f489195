import { DEFAULT_DECK, indexDeck } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { Reconstructed, RegionTag } from '../board/CardFace.tsx';
import { Flag } from '../board/Flag.tsx';
import { useGameWords } from '../i18n/gameWords.ts';
import { CommandReachExample, RegionScoringExample } from './RuleExamples.tsx';

/** Each section's title, paragraphs, and an example drawn by the engine where one helps. */
const SECTIONS = [
  ['goalTitle', ['goal'], null],
  ['setupTitle', ['setup'], null],
  ['turnTitle', ['turn1', 'turn2', 'turn3'], null],
  ['commandTitle', ['command', 'infiltrate'], CommandReachExample],
  ['scoringTitle', ['dominate', 'scoringText'], RegionScoringExample],
  ['roundsTitle', ['rounds'], null],
  ['finalTitle', ['final'], null],
] as const;

/** The rules in our own words, and the default deck with every reconstructed field marked. */
export function RulesPage() {
  const { t } = useTranslation();
  const words = useGameWords();
  const deck = DEFAULT_DECK;
  const index = indexDeck(deck);
  return (
    <main className="page rules-page">
      <header className="title">
        <h1>{t('rules.title')}</h1>
      </header>
      <section className="panel" aria-labelledby="rules-deck">
        <h2 id="rules-deck">{t('rules.reconstructedTitle')}</h2>
        <p>{t('rules.reconstructedText')}</p>
      </section>
      {SECTIONS.map(([title, paragraphs, Example]) => (
        <section key={title} className="panel" aria-labelledby={`rules-${title}`}>
          <h2 id={`rules-${title}`}>{t(`rules.${title}`)}</h2>
          {paragraphs.map((p) => (
            <p key={p}>{t(`rules.${p}`)}</p>
          ))}
          {Example && <Example />}
        </section>
      ))}
      <section className="panel" aria-labelledby="rules-regions">
        <h2 id="rules-regions">{t('rules.regionsTitle')}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('rules.regionHeader')}</th>
              <th scope="col">{t('rules.sizeHeader')}</th>
              <th scope="col">{t('rules.bonusHeader')}</th>
            </tr>
          </thead>
          <tbody>
            {deck.regions.map((region) => (
              <tr key={region.id}>
                <td>
                  <RegionTag deck={deck} region={region} />
                </td>
                <td>
                  {region.size}
                  <Reconstructed status={region.status.size} />
                </td>
                <td>
                  {region.bonus}
                  <Reconstructed status={region.status.bonus} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel" aria-labelledby="rules-cards">
        <h2 id="rules-cards">{t('rules.cardsTitle')}</h2>
        <div className="table-scroll">
          <table className="card-list">
            <thead>
              <tr>
                <th scope="col">{t('rules.cardHeader')}</th>
                <th scope="col">{t('rules.regionHeader')}</th>
                <th scope="col">{t('rules.flagHeader')}</th>
                <th scope="col">{t('rules.commandHeader')}</th>
                <th scope="col">{t('rules.eventHeader')}</th>
              </tr>
            </thead>
            <tbody>
              {deck.cards.map((card) => (
                <tr key={card.id} data-card={card.id}>
                  <th scope="row">
                    {words.cardName(deck, card.id)}
                    <Reconstructed status={card.status.name} />
                  </th>
                  <td>
                    <RegionTag deck={deck} region={index.region(card.region)} />
                    <Reconstructed status={card.status.region} />
                  </td>
                  <td>
                    {card.flag ? (
                      <>
                        <Flag side={card.flag} /> {words.side(card.flag)}
                      </>
                    ) : (
                      t('board.starter')
                    )}
                    <Reconstructed status={card.status.flag} />
                  </td>
                  <td>
                    {card.command ?? '–'}
                    <Reconstructed status={card.status.command} />
                  </td>
                  <td>
                    {words.eventText(deck, card) || t('board.noEvent')}
                    <Reconstructed status={card.status.event} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <p>
        <Link to={paths.tutorial()}>{t('rules.tutorialLink')}</Link>
      </p>
    </main>
  );
}
