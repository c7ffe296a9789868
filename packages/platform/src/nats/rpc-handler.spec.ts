import { rpc } from '@gateway/contracts';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { z } from 'zod';
import { RpcHandler } from './rpc-handler';

const Greet = rpc('spec.greet', z.object({ name: z.string() }), z.object({ greeting: z.string(), at: z.iso.datetime() }));

/**
 * The reply check is a compile-time one: `tsc` (the package's lint) fails on the `@ts-expect-error`
 * lines the day `RpcHandler` accepts a wrong answer, as it fails on the right ones the day it refuses them.
 */
class Greeter {
  @RpcHandler(Greet)
  greet(): { greeting: string; at: string } {
    return { greeting: 'hello', at: new Date(0).toISOString() };
  }

  @RpcHandler(Greet)
  async greetLater(): Promise<{ greeting: string; at: string }> {
    return { greeting: 'hello', at: new Date(0).toISOString() };
  }

  // @ts-expect-error a Date is not the ISO string the reply schema parses
  @RpcHandler(Greet)
  async greetWithDate(): Promise<{ greeting: string; at: Date }> {
    return { greeting: 'hello', at: new Date(0) };
  }

  // @ts-expect-error a field the reply requires is missing
  @RpcHandler(Greet)
  greetWithout(): { greeting: string } {
    return { greeting: 'hello' };
  }
}

describe('RpcHandler', () => {
  it("registers each method under its subject's pattern, as MessagePattern does", () => {
    const patterns = ['greet', 'greetLater', 'greetWithDate', 'greetWithout'].map((name) =>
      Reflect.getMetadata(PATTERN_METADATA, Greeter.prototype[name as keyof Greeter]),
    );
    expect(patterns).toEqual([['spec.greet'], ['spec.greet'], ['spec.greet'], ['spec.greet']]);
  });

  it('lets a good answer through unchanged', async () => {
    const greeter = new Greeter();
    expect(Greet.reply.parse(greeter.greet())).toEqual({ greeting: 'hello', at: '1970-01-01T00:00:00.000Z' });
    expect(Greet.reply.parse(await greeter.greetLater())).toEqual({ greeting: 'hello', at: '1970-01-01T00:00:00.000Z' });
  });
});
