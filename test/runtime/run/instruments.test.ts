/**
 * registerInstrument by id: a later instrument of the same id replaces the one registered, and
 * unregistering it gives runs back the one it replaced, unless that one was unregistered meanwhile
 * (how startTelemetry's shutdown leaves the app's own tracing instrument in place, and only it).
 */
import { describe, expect, it } from 'vitest';
import { registerInstrument, type RunInstrument } from '../../../src/runtime/index.js';
import { echoAgent } from '../../support/compositions.js';

/** Which of the instruments named here took part in each run of `run`. */
function instruments(...names: string[]): { make: (name: string) => RunInstrument; seen: string[] } {
  const seen: string[] = [];
  const made = new Map(names.map((name) => [name, { id: 'test.replaced', start: () => void seen.push(name) } satisfies RunInstrument]));
  return { make: (name) => made.get(name)!, seen };
}

describe('registerInstrument under one id', () => {
  it('runs the latest, and the one it replaced once the latest is unregistered', async () => {
    const { agent } = echoAgent('a');
    const { make, seen } = instruments('app', 'telemetry');
    const offApp = registerInstrument(make('app'));
    const offTelemetry = registerInstrument(make('telemetry'));
    await agent.run('1');
    offTelemetry();
    await agent.run('2');
    offTelemetry(); // a second call changes nothing
    await agent.run('3');
    offApp();
    await agent.run('4');
    expect(seen).toEqual(['telemetry', 'app', 'app']);
  });

  it('does not bring back one unregistered while it was replaced', async () => {
    const { agent } = echoAgent('a');
    const { make, seen } = instruments('app', 'telemetry');
    const offApp = registerInstrument(make('app'));
    const offTelemetry = registerInstrument(make('telemetry'));
    offApp();
    await agent.run('1');
    offTelemetry();
    await agent.run('2');
    expect(seen).toEqual(['telemetry']);
  });
});
