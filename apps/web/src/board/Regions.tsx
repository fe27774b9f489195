import { indexDeck, regionScore, type State } from '@iron-curtain/game';
import { Reconstructed, RegionTag } from './CardFace.tsx';

/** Each region's progress (placed/size), bonus, whether it scored during play and who leads it now. */
export function Regions({ view }: { view: State }) {
  const deck = indexDeck(view.deck);
  return (
    <section className="panel regions" aria-label="Regions">
      <h2>Regions</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Region</th>
            <th scope="col">Placed</th>
            <th scope="col">Bonus</th>
            <th scope="col">Leads</th>
          </tr>
        </thead>
        <tbody>
          {view.deck.regions.map((region) => {
            const placed = view.table.filter((p) => deck.card(p.cardId).region === region.id);
            const score = regionScore(view, region.id);
            const scored = view.scoredRegions.includes(region.id);
            return (
              <tr key={region.id} data-region={region.id}>
                <td>
                  <RegionTag region={region} />
                </td>
                <td>
                  {placed.length}/{region.size}
                  {scored && <span className="scored"> scored</span>}
                </td>
                <td>
                  {region.bonus}
                  <Reconstructed status={region.status.bonus} />
                </td>
                <td>{score.bonusTo ?? '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
