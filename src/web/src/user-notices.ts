import type { Trade, UserMessage } from '../../client/index.ts';
import { cents, date, describeOrder, shares } from './format.ts';

/** The market a `/user` message's price belongs to, for its tick (market-ticks.ts). */
export function noticeMarket(message: UserMessage): string | undefined {
  if (message.type === 'trade-update') return (message.data as unknown as Trade).market;
  return message.type === 'order-update' ? message.data.order.market : undefined;
}

/**
 * A `/user` message as a notice in words, or undefined when it is no news: prices on `tickSize`,
 * their market's tick; `mine` says whether an address is the trader's.
 */
export function userNotice(message: UserMessage, tickSize: string | undefined, mine: (address: string | null) => boolean): string | undefined {
  switch (message.type) {
    case 'trade-update': {
      // A trade is the taker's token and price; a maker's side of it (perhaps the other outcome, at
      // the complement price) is its order's update, announced below.
      const trade = message.data as unknown as Trade;
      return trade.status === 'MATCHED' && mine(trade.taker) ? `Trade matched: ${shares(trade.size)} at ${cents(trade.price, tickSize)}` : undefined;
    }
    case 'order-update':
      // The placement was answered in the ticket already; fills and cancels are news.
      return message.data.type === 'PLACEMENT' ? undefined : describeOrder(message.data.order, tickSize);
    case 'mmp-triggered': {
      const where = 'marketId' in message.data.scope ? 'a market' : 'an event';
      return `Market-maker protection tripped in ${where}: an API key's orders there were cancelled, and its new ones are refused until ${date(message.data.frozenUntil)}`;
    }
    case 'user-reward-claim-update':
      return 'Reward claim updated';
  }
}
