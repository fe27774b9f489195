import type { Seat } from '@iron-curtain/game';
import { PUSH_SUBSCRIPTIONS_PER_SEAT } from '@iron-curtain/protocol';
import { expect, it } from 'vitest';
import type { PushSubscriptionRecord } from '../../src/storage/index.ts';
import { describeContract, storedMatch } from './contract.ts';

/** A browser's subscription for a seat, made at second `second` of the day. */
function subscriptionOf(
  matchID: string,
  seat: Seat,
  endpoint: string,
  second = 0,
): PushSubscriptionRecord {
  return {
    matchID,
    seat,
    endpoint: `https://push.example/${endpoint}`,
    p256dh: `key-${endpoint}`,
    auth: `auth-${endpoint}`,
    language: 'en',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  };
}

describeContract('the push subscription store', (backend) => {
  const store = () => backend.stores().pushSubscriptions;

  it("keeps a seat's browsers, oldest first; a browser subscribing again replaces its keys and language", async () => {
    const matchID = await storedMatch(backend.stores());
    const phone = subscriptionOf(matchID, '0', 'phone', 1);
    const laptop = subscriptionOf(matchID, '0', 'laptop', 2);
    const opponent = subscriptionOf(matchID, '1', 'other', 3);
    for (const s of [phone, laptop, opponent])
      expect(await store().savePushSubscription(s)).toBe(true);
    const again = {
      ...phone,
      p256dh: 'key-new',
      language: 'de' as const,
      createdAt: phone.createdAt,
    };
    expect(await backend.twin().pushSubscriptions.savePushSubscription(again)).toBe(true);
    expect(await store().listPushSubscriptions(matchID, '0')).toEqual([again, laptop]);
    expect(await store().listPushSubscriptions(matchID)).toEqual([again, laptop, opponent]);
  });

  it('refuses a subscription for a match that is not stored', async () => {
    expect(await store().savePushSubscription(subscriptionOf('nosuchmatch', '0', 'a'))).toBe(false);
    expect(await store().listPushSubscriptions('nosuchmatch')).toEqual([]);
  });

  it('a seat keeps its newest browsers only', async () => {
    const matchID = await storedMatch(backend.stores());
    const saved = Array.from({ length: PUSH_SUBSCRIPTIONS_PER_SEAT + 2 }, (_, i) =>
      subscriptionOf(matchID, '1', `browser-${i}`, i),
    );
    for (const s of saved) await store().savePushSubscription(s);
    expect(await store().listPushSubscriptions(matchID, '1')).toEqual(saved.slice(2));
  });

  it('drops one browser of a seat, an endpoint gone from every match, and a whole match', async () => {
    const [one, two] = [await storedMatch(backend.stores()), await storedMatch(backend.stores())];
    const gone = [subscriptionOf(one, '0', 'gone'), subscriptionOf(two, '1', 'gone')];
    const kept = [subscriptionOf(one, '0', 'kept', 1), subscriptionOf(one, '1', 'left', 2)];
    for (const s of [...gone, ...kept]) await store().savePushSubscription(s);

    expect(await store().removePushSubscription(one, '1', kept[1]?.endpoint as string)).toBe(true);
    expect(await store().removePushSubscription(one, '1', kept[1]?.endpoint as string)).toBe(false);
    expect(await store().removePushEndpoint('https://push.example/gone')).toBe(2);
    expect(await store().listPushSubscriptions(one)).toEqual([kept[0]]);
    expect(await store().listPushSubscriptions(two)).toEqual([]);
    await store().removeMatchPushSubscriptions(one);
    expect(await store().listPushSubscriptions(one)).toEqual([]);
  });
});
