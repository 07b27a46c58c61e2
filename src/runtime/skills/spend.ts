/** What a turn has spent, as the loop guard and its two checks (pingPong.ts, rejectedCap.ts) count it. */
export interface Spend {
  tokens: number;
  costUsd: number;
}
