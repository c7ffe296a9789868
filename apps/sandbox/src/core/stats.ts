// Counts of what the sandbox served, by route and outcome, plus token totals and the upstream keys
// presented: lets tests reconcile the gateway's usage records and key forwarding against the upstream.

export interface StatsSnapshot {
  total: number;
  routes: Record<string, Record<string, number>>;
  tokens: { prompt: number; completion: number };
  authKeys: Record<string, number>;
}

export class SandboxStats {
  private total = 0;
  private routes = new Map<string, Map<string, number>>();
  private prompt = 0;
  private completion = 0;
  private keys = new Map<string, number>();

  record(route: string, outcome: string): void {
    this.total += 1;
    let byOutcome = this.routes.get(route);
    if (!byOutcome) this.routes.set(route, (byOutcome = new Map()));
    byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
  }

  addTokens(prompt: number, completion: number): void {
    this.prompt += prompt;
    this.completion += completion;
  }

  recordKey(key: string): void {
    this.keys.set(key, (this.keys.get(key) ?? 0) + 1);
  }

  snapshot(): StatsSnapshot {
    const routes: StatsSnapshot['routes'] = {};
    for (const [route, outcomes] of this.routes) routes[route] = Object.fromEntries(outcomes);
    return {
      total: this.total,
      routes,
      tokens: { prompt: this.prompt, completion: this.completion },
      authKeys: Object.fromEntries(this.keys),
    };
  }

  reset(): void {
    this.total = 0;
    this.routes.clear();
    this.prompt = 0;
    this.completion = 0;
    this.keys.clear();
  }
}
